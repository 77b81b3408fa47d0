import type { Message } from 'telegraf/types';
import { telegramResponder } from '../../../adapters/telegram/responder.js';
import type { LiveAnswer, Responder } from '../../../src/shared/channel.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { inboundMessage } from '../../support/inbound-message.js';
import { direct, group, setUpDelivery, type DeliverySetup } from './delivery-setup.js';

// A responder over the delivery of delivery-setup.ts (real telegraf, the fake, a hand-moved scheduler), and what a
// live answer's test needs: the stored message, a journal that names the live message, and the remembered handles.

export interface LiveSetup extends DeliverySetup {
  responder: Responder;
  live: LiveAnswer;
  remembered: string[];
  inbound: InboundMessage;
  /** The group question the live message replies to (group setups). */
  asked?: Message.TextMessage;
}

export async function setUpLive(kind: 'direct' | 'group', options: { earlier?: string; language?: 'th' | 'en' } = {}): Promise<LiveSetup> {
  const setup = await setUpDelivery();
  const question = kind === 'group' ? setup.question('@saeng_test_bot สรุปข่าวให้หน่อย') : undefined;
  const chatId = kind === 'group' ? group.id : direct.id;
  const inbound = inboundMessage({
    conversationKey: `telegram:${chatId}`,
    spaceKey: `telegram:${chatId}`,
    messageId: `${chatId}:${question?.message_id ?? 4321}`,
    chatKind: kind,
  });
  const responder = telegramResponder(inbound, { delivery: setup.delivery, logger: setup.log, language: options.language ?? 'th' });
  const remembered: string[] = [];
  if (!responder.live) throw new Error('the Telegram responder has no live answer');
  const live = responder.live({
    ...(options.earlier === undefined ? {} : { earlier: options.earlier }),
    remember: (handle) => {
      remembered.push(handle);
      return Promise.resolve();
    },
  });
  return { ...setup, responder, live, remembered, inbound, ...(question ? { asked: question } : {}) };
}
