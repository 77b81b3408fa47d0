import { lineUserId, type FakeLine } from '../fakes/line/index.js';
import type { RequestBody } from '../fakes/model-server.js';
import { privateChat, textMessageUpdate, user, type FakeTelegram } from '../fakes/telegram/index.js';
import { deliverLineText, deliverTelegramUpdate, lastUserText, letters, type FleetBot } from './bot-fleet.js';

// Direct-chat conversations on LINE and Telegram for the scale-out test and bench: each question names its
// conversation and number (in letters), the fake model's standing answer names the question it answers, so every
// answer the platforms got can be told apart and put in order.

export interface FleetPlatforms {
  line: FakeLine;
  telegram: FakeTelegram;
}

export interface Conversation {
  name: string;
  /** Sends question `index` through the process the balancer picks first. */
  ask(index: number, first: number): Promise<void>;
  /** What the bot sent to this conversation, in the order the platform got it. */
  sent(): string[];
}

export const question = (conversation: string, index: number): string => `คำถาม ${conversation} ${letters(index)}`;
export const answerTo = (conversation: string, index: number): string => `รับ ${conversation} ${letters(index)}`;

/** The fake model's standing answer (startFakeModelServer's `answer.text`). */
export function answerFor(body: RequestBody): string {
  const asked = /คำถาม ([a-z]{1,8}) ([a-z]{1,8})/.exec(lastUserText(body));
  return asked ? `รับ ${asked[1]} ${asked[2]}` : 'ไม่ทราบคำถาม';
}

export function lineConversation({ line }: FleetPlatforms, index: number, bots: readonly FleetBot[]): Conversation {
  const name = `l${letters(index)}`;
  const userId = lineUserId(`fleet-${name}`);
  return {
    name,
    ask: (message, first) => deliverLineText(line, bots, first, userId, question(name, message)),
    sent: () => line.sentMessages(userId).map((message) => message.text ?? `(${message.type})`),
  };
}

export function telegramConversation({ telegram }: FleetPlatforms, index: number, bots: readonly FleetBot[]): Conversation {
  const name = `t${letters(index)}`;
  const person = user(900_000 + index, `Fleet ${name}`);
  const chat = privateChat(person);
  return {
    name,
    ask: (message, first) => deliverTelegramUpdate(telegram, bots, first, textMessageUpdate({ chat, from: person, text: question(name, message) })),
    sent: () => telegram.sentMessages(chat.id).flatMap((message) => ('text' in message ? [message.text] : [`(${Object.keys(message).join(',')})`])),
  };
}

/** Half on LINE, half on Telegram. */
export function mixedConversations(platforms: FleetPlatforms, count: number, bots: readonly FleetBot[]): Conversation[] {
  const perPlatform = Math.ceil(count / 2);
  return [
    ...Array.from({ length: perPlatform }, (_, index) => lineConversation(platforms, index, bots)),
    ...Array.from({ length: count - perPlatform }, (_, index) => telegramConversation(platforms, index, bots)),
  ];
}

/** Resolves once the conversation has `count` messages from the bot (checked on every send either fake answers). */
export function whenSent({ line, telegram }: FleetPlatforms, conversation: Conversation, count: number): Promise<void> {
  const enough = () => conversation.sent().length >= count;
  return Promise.race([
    line.waitForCall(/^POST \/v2\/bot\/message\/(reply|push)$/, enough).then(() => undefined),
    telegram.waitForCall('sendMessage', enough).then(() => undefined),
  ]);
}

/**
 * Every conversation asks `perConversation` questions and keeps two open: the next goes out once the one before the
 * last is answered, so messages queue behind each other. Question k of conversation c goes first to process c + k
 * (mod the count), so each conversation's messages land on every process. `answered` is called for each answer.
 */
export async function converse(
  platforms: FleetPlatforms,
  conversations: readonly Conversation[],
  perConversation: number,
  answered: (conversation: Conversation, index: number) => void = () => undefined,
): Promise<void> {
  await Promise.all(
    conversations.map(async (conversation, offset) => {
      const answers: Promise<void>[] = [];
      for (let index = 0; index < perConversation; index += 1) {
        if (index >= 2) await answers[index - 2];
        await conversation.ask(index, offset + index);
        answers.push(whenSent(platforms, conversation, index + 1).then(() => answered(conversation, index)));
      }
      await Promise.all(answers);
    }),
  );
}
