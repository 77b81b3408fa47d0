import { readFile } from 'node:fs/promises';
import type { messagingApi } from '@line/bot-sdk';
import { planReply, TypingWhileWorking } from '../common/reply-plan.js';
import type { DeliveryObserver, Responder } from '../../src/shared/channel.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Logger } from '../../src/shared/log.js';
import type { InboundMessage, Language, OutboundFile, Reply } from '../../src/shared/types.js';
import type { Scheduler, Sleep } from '../common/scheduler.js';
import { startTypingLoop, type TypingHandle } from '../common/typing.js';
import { lineCapabilities, lineReplyShape } from './capabilities.js';
import { replyBubbles, sendBubbles, sentBubbles, type Bubble, type SendOptions, type SentBubble } from './delivery.js';
import { readEarlyReply, remainderAfter } from './early-reply.js';
import { lineLiveAnswer } from './live-answer.js';

// How one stored message is answered on LINE (docs/architecture.md, "Data flow of one message", step 7): the
// reply as plain-text bubbles (at most five, each at most 5,000 characters) in one call — the reply token is
// single use — the first quoting the user's message in groups; files inline when short text, otherwise a note.
// A reply is one journaled part: it goes out whole or not at all. With streaming on, an answer still being written
// when the reply window closes gets the reply for what is ready (live-answer.ts); its final reply pushes the rest.

export interface LineResponderOptions {
  client: messagingApi.MessagingApiClient;
  logger: Logger;
  language: Language;
  /** BOT_TIMEZONE, for when a download link expires. */
  timeZone: string;
  sleep: Sleep;
  scheduler: Scheduler;
  /** Records the bot's sent messages, so a quote of one is a reply to the bot and its text is known. */
  recordSent(sent: readonly SentBubble[]): Promise<void>;
  onQuotaExhausted(): void;
  observeDelivery?: DeliveryObserver | undefined;
  now?: () => number;
}

const maxBubbles = lineCapabilities.maxMessagesPerReply;
/** A written file shorter than this goes into the chat as text. */
const inlineFileChars = 3_000;
/** LINE shows the animation up to 60 s; renewed while the turn runs. */
const loadingSeconds = 20;
const loadingRenewalMs = 15_000;

const strings = {
  cut: {
    th: '(คำตอบยาวเกินกว่าที่ LINE ส่งได้ในครั้งเดียว ส่วนที่เหลือถูกตัดออก ถามต่อเพื่อดูรายละเอียดเพิ่มได้)',
    en: '(The answer is longer than LINE can take at once; the rest was cut. Ask a follow-up for more.)',
  },
  fileLinked: {
    th: 'เขียนไฟล์ {name} ({size} ไบต์) แล้ว LINE ส่งไฟล์ให้ไม่ได้ ดาวน์โหลดได้ที่ {url} (ลิงก์ใช้ได้ถึง {until})',
    en: 'Wrote the file {name} ({size} bytes). LINE bots cannot send files; download it at {url} (the link works until {until}).',
  },
  fileWritten: {
    th: 'เขียนไฟล์ {name} ({size} ไบต์) แล้ว แต่ LINE ส่งไฟล์ให้ไม่ได้ ขอให้ผู้ดูแลคัดลอกจากโฟลเดอร์ข้อมูลของบอท (DATA_DIR) หรือถามให้สรุปเนื้อหาในแชตแทน',
    en: 'Wrote the file {name} ({size} bytes), but LINE bots cannot send files. Ask an admin to copy it from the bot’s data folder (DATA_DIR), or ask for its content in the chat.',
  },
} satisfies Record<string, Localized>;

const textLike = /^(?:text\/|application\/(?:json|csv|x-ndjson))/;

async function fileBubble(file: OutboundFile, language: Language, timeZone: string): Promise<string> {
  if (textLike.test(file.mime) && file.size <= inlineFileChars) {
    const content = (await readFile(file.path, 'utf8')).slice(0, inlineFileChars);
    return `📄 ${file.name}\n\n${content}`;
  }
  if (file.link) {
    const until = new Date(file.link.expiresAt).toLocaleString(language === 'th' ? 'th-TH' : 'en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });
    return say(strings.fileLinked, language, { name: file.name, size: file.size, url: file.link.url, until });
  }
  return say(strings.fileWritten, language, { name: file.name, size: file.size });
}

/** At most five bubbles: when there are more, the fifth says the answer was cut instead of silently dropping it. */
async function bubblesOf(reply: Reply, options: Pick<LineResponderOptions, 'language' | 'timeZone'>, quoteToken: string | undefined): Promise<Bubble[]> {
  const { language } = options;
  // LINE sends no files (capabilities.sendsFiles): the plan holds text parts, then files, each becoming a bubble.
  const plan = planReply(reply, lineReplyShape, language);
  const texts = await Promise.all(
    plan.map(async (part) => (part.kind === 'file' ? fileBubble(part.file, language, options.timeZone) : part.kind === 'text' ? part.content : part.text)),
  );
  const kept = texts.length <= maxBubbles ? texts : [...texts.slice(0, maxBubbles - 1), say(strings.cut, language)];
  return kept.map((text, index) => ({ type: 'text', text, ...(index === 0 && quoteToken ? { quoteToken } : {}) }));
}

export function lineResponder(message: InboundMessage, chatId: string, options: LineResponderOptions): Responder {
  const now = options.now ?? Date.now;
  // The token is spent by the first reply; notices before the answer use it up, and the rest are pushed.
  let tokenSpent = false;
  let replies = 0;
  const quoteToken = message.chatKind === 'group' ? message.replyToken?.quoteToken : undefined;
  // LINE refuses the animation for groups and rooms.
  const typing = new TypingWhileWorking(lineCapabilities, () => (message.chatKind === 'direct' ? loadingAnimation(chatId, options) : undefined));
  const token = message.replyToken;
  const tokenFresh = () => !tokenSpent && token !== undefined && now() < token.expiresAt.getTime();
  const sendOptions: SendOptions = {
    client: options.client,
    logger: options.logger,
    sleep: options.sleep,
    onQuotaExhausted: options.onQuotaExhausted,
    observeDelivery: options.observeDelivery,
  };
  return {
    send: async (reply, journal) => {
      // Counted even when already sent: after a restart the same reply gets the same push retry key.
      const replyIndex = replies++;
      if (journal.isSent(0)) return;
      // An early reply carried the start of this answer (in this attempt or one before a restart): the rest follows.
      const early = readEarlyReply(journal.liveMessage);
      if (early) tokenSpent = true;
      const rest = early ? { ...reply, text: remainderAfter(reply.text, early) } : reply;
      const bubbles = rest.text.trim() === '' && rest.files.length === 0 ? [] : await bubblesOf(rest, options, quoteToken);
      await journal.sending(0);
      const retrySeed = journal.deliveryKey ?? `${message.messageId}:${replyIndex}`;
      const ids =
        bubbles.length === 0 ? [] : await sendBubbles({ chatId, replyToken: token?.value, replyTokenFresh: tokenFresh(), retrySeed }, bubbles, sendOptions);
      tokenSpent = true;
      await journal.sent(0);
      await options.recordSent(sentBubbles(bubbles, ids));
    },
    working: typing.working,
    live: (start) =>
      lineLiveAnswer(start, {
        replyBy: token?.expiresAt.getTime(),
        now,
        scheduler: options.scheduler,
        language: options.language,
        logger: options.logger,
        claimReply: () => {
          const fresh = tokenFresh();
          tokenSpent = true;
          return fresh;
        },
        reply: async (texts) => {
          const bubbles = texts.map((text, index): Bubble => ({ type: 'text', text, ...(index === 0 && quoteToken ? { quoteToken } : {}) }));
          const ids = token === undefined ? undefined : await replyBubbles(token.value, bubbles, sendOptions);
          if (ids === undefined) return false;
          await options.recordSent(sentBubbles(bubbles, ids));
          return true;
        },
      }),
  };
}

/** LINE's loading animation, renewed while the turn runs. */
function loadingAnimation(chatId: string, options: LineResponderOptions): TypingHandle {
  return startTypingLoop({
    scheduler: options.scheduler,
    intervalMs: loadingRenewalMs,
    mayContinue: () => true,
    send: async () => {
      try {
        await options.client.showLoadingAnimation({ chatId, loadingSeconds });
      } catch (error) {
        options.logger.debug({ chatId, error: error instanceof Error ? error.message : 'unknown' }, 'line loading animation failed');
      }
    },
  });
}
