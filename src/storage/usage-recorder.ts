import { logFailure, type Logger } from '../shared/log.js';
import type { InboundMessage, TurnRecord } from '../shared/types.js';
import { usageDay, usageOfTurn, type UsageStore } from './usage-store.js';

// Where a turn ends (the router's observe hook, src/app.ts): its counts go to the usage store under the day in
// BOT_TIMEZONE, the space and the sender. A store that fails (Redis down) costs a log line, never the answer.

export interface UsageRecorderOptions {
  store: UsageStore;
  timeZone: string;
  now: () => Date;
  log: Logger;
}

export function usageRecorder(options: UsageRecorderOptions) {
  return (record: TurnRecord, message: Pick<InboundMessage, 'platform' | 'spaceKey' | 'sender'>): Promise<void> =>
    options.store
      .add({
        day: usageDay(options.now(), options.timeZone),
        spaceKey: message.spaceKey,
        userKey: `${message.platform}:${message.sender.id}`,
        userName: message.sender.name,
        counts: usageOfTurn(record),
      })
      .catch((error: unknown) => logFailure(options.log, 'warn', { space: message.spaceKey }, 'usage not recorded', error));
}
