import type { DeliveryJournal } from '../../src/shared/channel.js';

/**
 * A delivery journal in memory that records each mark ("sending 0", "sent 0"), for responder tests: parts given as
 * already sent are skipped, and `liveMessage` names the live message a streamed turn left.
 */
export function recordingJournal(options: { alreadySent?: readonly number[]; liveMessage?: string } = {}): DeliveryJournal & { marks: string[] } {
  const sent = new Set(options.alreadySent ?? []);
  const marks: string[] = [];
  return {
    marks,
    isSent: (part) => sent.has(part),
    sending: async (part) => void marks.push(`sending ${part}`),
    sent: async (part) => {
      sent.add(part);
      marks.push(`sent ${part}`);
    },
    ...(options.liveMessage === undefined ? {} : { liveMessage: options.liveMessage }),
  };
}
