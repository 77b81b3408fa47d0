import { Telegram } from 'telegraf';
import type { Message } from 'telegraf/types';
import { TelegramDelivery } from '../../../adapters/telegram/delivery.js';
import type { Sleep } from '../../../adapters/common/scheduler.js';
import type { DeliveryEvent } from '../../../src/shared/channel.js';
import type { Logger } from '../../../src/shared/log.js';
import { groupChat, privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { ManualScheduler, recordingSleep } from '../../support/manual-scheduler.js';

// A TelegramDelivery over telegraf's real client, pointed at the fake, with time in the test's hands.

export const somchai = user(501, 'สมชาย', 'somchai');
export const direct = privateChat(somchai);
export const group = groupChat(-1001234567890, 'ทีมแสง');

export interface DeliverySetup {
  fake: FakeTelegram;
  delivery: TelegramDelivery;
  waits: number[];
  scheduler: ManualScheduler;
  records: LogRecord[];
  log: Logger;
  /** What the delivery reported of its sending (the /metrics counters), in order. */
  deliveryEvents: DeliveryEvent[];
  /** A message a user sent in the group, known to the fake (so a reply to it resolves). */
  question(text: string): Message.TextMessage;
  close(): Promise<void>;
}

export async function setUpDelivery(options: { sleep?: Sleep } = {}): Promise<DeliverySetup> {
  const fake = await startFakeTelegram({ chats: [direct, group] });
  const recorded = recordingSleep();
  const scheduler = new ManualScheduler();
  const { log, records } = memoryLog('debug', [fake.token]);
  const telegram = new Telegram(fake.token, { apiRoot: fake.url });
  const deliveryEvents: DeliveryEvent[] = [];
  const delivery = new TelegramDelivery({
    telegram,
    logger: log,
    sleep: options.sleep ?? recorded.sleep,
    scheduler,
    observeDelivery: (event) => void deliveryEvents.push(event),
  });
  return {
    fake,
    delivery,
    waits: recorded.waits,
    scheduler,
    records,
    log,
    deliveryEvents,
    question: (text) => {
      const update = { ...textMessageUpdate({ chat: group, from: somchai, text }), update_id: 1 };
      fake.rememberUpdate(update);
      return update.message as Message.TextMessage;
    },
    close: () => fake.close(),
  };
}

export function textsOf(messages: readonly Message[]): string[] {
  return messages.map((message) => ('text' in message ? message.text : ''));
}
