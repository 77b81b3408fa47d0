import type { PlatformCapabilities } from '../../src/shared/channel.js';
import type { Language, OutboundFile, Reply } from '../../src/shared/types.js';
import { capReply, type ReplyShape } from '../format/index.js';
import type { ProgressMessage } from './progress-message.js';
import type { TypingHandle } from './typing.js';

// The parts of a responder every platform shares, decided by the capabilities its adapter declares rather than
// copied per adapter: what one reply becomes (its text parts, the rest of a long answer as a file where the platform
// sends files, then the files), progress as one edited status message where messages can be edited, and a typing
// indicator where there is one. Part n of the plan is journal part n.

export type PlannedPart = { kind: 'text'; content: string } | { kind: 'text-file'; name: string; text: string } | { kind: 'file'; file: OutboundFile };

/** One reply as the messages that carry it, in order: its text parts, the rest as a text file, then its files. */
export function planReply(reply: Reply, shape: ReplyShape, language: Language): PlannedPart[] {
  const capped = capReply(reply.text, shape, { language });
  return [
    ...capped.parts.map((content): PlannedPart => ({ kind: 'text', content })),
    ...(capped.rest ? [{ kind: 'text-file' as const, ...capped.rest }] : []),
    ...reply.files.map((file): PlannedPart => ({ kind: 'file', file })),
  ];
}

/**
 * Progress as one status message edited round by round, opened on the first event; undefined where the platform
 * cannot edit a sent message (a new message per round would flood the chat).
 */
export function editedProgress<Id>(
  capabilities: Pick<PlatformCapabilities, 'canEdit'>,
  open: () => ProgressMessage<Id>,
): ((event: { text: string }) => Promise<void>) | undefined {
  if (!capabilities.canEdit) return undefined;
  let message: ProgressMessage<Id> | undefined;
  return async (event) => {
    message ??= open();
    await message.update(event.text);
  };
}

/**
 * The typing indicator while a turn runs, where the platform has one. `stopped` resolves once the last action is
 * done, so the answer waits for it and typing does not reappear after it.
 */
export class TypingWhileWorking {
  private stopped: Promise<void> = Promise.resolve();

  constructor(
    private readonly capabilities: Pick<PlatformCapabilities, 'typingIndicator'>,
    private readonly start: () => TypingHandle | undefined,
  ) {}

  working = (): (() => void) => {
    const typing = this.capabilities.typingIndicator ? this.start() : undefined;
    return () => {
      if (typing) this.stopped = typing.stop();
    };
  };

  /** Resolves once the indicator of the last turn has stopped. */
  settled(): Promise<void> {
    return this.stopped;
  }
}
