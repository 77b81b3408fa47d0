import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { HTTPFetchError, messagingApi, type webhook } from '@line/bot-sdk';
import type { AdapterIdentity, DeliveryObserver, InboundHandler, PlatformAdapter, WebhookRoute } from '../../src/shared/channel.js';
import { lineCapabilities } from './capabilities.js';
import { describeError } from '../../src/shared/describe-error.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Logger } from '../../src/shared/log.js';
import type { Language } from '../../src/shared/types.js';
import { readCapped } from '../common/read-capped.js';
import { timerScheduler, timerSleep, type Scheduler, type Sleep } from '../common/scheduler.js';
import { chatIdOf, normalizeLineEvents, seenOf } from './inbound.js';
import { LineMessageStore } from './message-store.js';
import { lineResponder } from './responder.js';
import { lineErrorMessage, sendBubbles, type SentBubble } from './delivery.js';
import { lineWebhookRoute } from './webhook.js';
import { WebhookGate } from '../common/webhook-gate.js';
import { PlatformConfigError } from '../../src/shared/platform-config-error.js';
import { lineMaxEventAgeMs } from './webhook-events.js';
import { checkLineWebhook, describeWebhookCheck, webhookNeedsAttention } from './webhook-check.js';

// The LINE adapter's face (docs/architecture.md, "Adding a platform"): @line/bot-sdk 11.0.0 (the last for Node 20),
// a signed webhook on the HTTP server, every event of a batch stored before the 200, answers in one reply call
// while the token lives and one keyed push after, content from the data API.

export interface LineAdapterOptions {
  channelSecret: string;
  channelAccessToken: string;
  /** LINE_API_BASE_URL (default https://api.line.me) and LINE_DATA_API_BASE_URL (default https://api-data.line.me). */
  apiBaseUrl?: string;
  dataApiBaseUrl?: string;
  /** LINE_REPLY_WINDOW_MS: how long after the event the reply token is used; later answers are pushed. */
  replyWindowMs: number;
  logger: Logger;
  language: Language;
  timeZone: string;
  scheduler?: Scheduler;
  sleep?: Sleep;
  /** Counts reply/push calls that went out, retries and 429s (src/metrics.ts). */
  observeDelivery?: DeliveryObserver;
  /** DEDUPE_TTL_SECONDS in ms: webhook events older than this window allows are refused (webhook-events.ts). */
  dedupeTtlMs: number;
  /** PUBLIC_BASE_URL: where the bot is reachable; the webhook check compares LINE's URL on file with its route. */
  publicBaseUrl?: string;
}

/** How long the bot's sent ids are kept to recognize a quote of one (LINE keeps chats far longer; a month is plenty). */
const sentIdsTtlSeconds = 30 * 24 * 3600;

const joinGreeting: Localized = {
  th: 'สวัสดีครับ ผมแสง ผู้ช่วย AI ของกลุ่มนี้ แท็ก @ชื่อบอท แล้วพิมพ์คำถาม หรือตอบกลับข้อความของผม เพื่อเรียกใช้ได้เลย (พิมพ์ /help ดูคำสั่ง)',
  en: 'Hello, I am Saeng, this group’s AI assistant. Mention me and type your question, or reply to one of my messages (/help lists the commands).',
};

const statusStrings = {
  exhausted: {
    th: 'LINE: โควตาข้อความ push ของเดือนนี้หมดแล้ว คำตอบที่พร้อมช้ากว่า {seconds} วินาทีจะส่งไม่ได้จนกว่าจะขึ้นเดือนใหม่หรืออัปเกรดแพ็กเกจ',
    en: 'LINE: this month’s push quota is used up; answers ready later than {seconds} s cannot be sent until the month resets or the plan is upgraded',
  },
  quota: { th: 'LINE: ข้อความ push เดือนนี้ใช้ไป {used} จาก {limit}', en: 'LINE: push messages this month: {used} of {limit}' },
  unlimited: { th: 'ไม่จำกัด', en: 'unlimited' },
  quotaUnknown: { th: 'LINE: อ่านโควตาไม่ได้ ({problem})', en: 'LINE: could not read the quota ({problem})' },
} satisfies Record<string, Localized>;

class LineAdapter implements PlatformAdapter {
  readonly platform = 'line';
  readonly capabilities = lineCapabilities;
  readonly routes: readonly WebhookRoute[];
  private readonly client: messagingApi.MessagingApiClient;
  private readonly blob: messagingApi.MessagingApiBlobClient;
  private handler: InboundHandler | undefined;
  /** Opens once the handler is known (attach, or start), closes at stop: a signed event is stored whenever it is open. */
  private readonly gate = new WebhookGate();
  private quotaExhausted = false;
  /** The bot's display name (getBotInfo), the author of its messages when they are quoted. */
  private botName: string | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly options: LineAdapterOptions) {
    const token = options.channelAccessToken;
    this.client = new messagingApi.MessagingApiClient({ channelAccessToken: token, ...(options.apiBaseUrl ? { baseURL: options.apiBaseUrl } : {}) });
    this.blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: token, ...(options.dataApiBaseUrl ? { baseURL: options.dataApiBaseUrl } : {}) });
    this.routes = [
      lineWebhookRoute({
        channelSecret: options.channelSecret,
        accepting: () => this.gate.wait(0),
        handleEvents: (events) => this.track(this.takeEvents(events)),
        maxEventAgeMs: lineMaxEventAgeMs(options.dedupeTtlMs),
        log: options.logger,
      }),
    ];
  }

  /** Events LINE sends while getBotInfo is still pending (or retried) are stored: LINE does not send them again. */
  attach(handler: InboundHandler): void {
    this.handler = handler;
    this.gate.open();
  }

  async start(handler: InboundHandler): Promise<AdapterIdentity> {
    this.attach(handler);
    let info: messagingApi.BotInfoResponse;
    try {
      info = await this.client.getBotInfo();
    } catch (error) {
      if (error instanceof HTTPFetchError && (error.status === 401 || error.status === 403)) {
        throw new PlatformConfigError(
          'LINE_CHANNEL_ACCESS_TOKEN',
          {
            th: `LINE_CHANNEL_ACCESS_TOKEN ถูก LINE ปฏิเสธ (${error.status}): ออก channel access token (long-lived) ใหม่ใน LINE Developers console แล้วเริ่มบอทอีกครั้ง`,
            en: `LINE_CHANNEL_ACCESS_TOKEN was refused by LINE (${error.status}): issue a long-lived channel access token in the LINE Developers console, then start the bot again`,
          },
          { cause: error },
        );
      }
      throw new Error(`line: could not reach the Messaging API: ${lineErrorMessage(error)}`, { cause: error });
    }
    this.botName = info.displayName;
    this.options.logger.info({ bot: info.basicId, name: info.displayName }, 'line bot started: webhook at /webhooks/line');
    // After start: LINE's test delivery needs the route open, and a slow answer must not hold the start-up.
    void this.track(this.logWebhookCheck());
    // LINE has no privacy mode and no /cmd@bot: the bot sees every group message.
    return { readsAllGroupMessages: true };
  }

  async stop(): Promise<void> {
    this.gate.close();
    await Promise.allSettled([...this.inFlight]);
  }

  responderFor: PlatformAdapter['responderFor'] = (message) =>
    lineResponder(message, message.conversationKey.slice('line:'.length), {
      client: this.client,
      logger: this.options.logger,
      language: this.options.language,
      timeZone: this.options.timeZone,
      sleep: this.options.sleep ?? timerSleep,
      scheduler: this.options.scheduler ?? timerScheduler,
      recordSent: (sent) => this.recordSent(message.conversationKey.slice('line:'.length), sent),
      onQuotaExhausted: () => (this.quotaExhausted = true),
      observeDelivery: this.options.observeDelivery,
    });

  download: PlatformAdapter['download'] = async (attachment, maxBytes) => {
    if (attachment.reference.kind !== 'message') throw new Error(`not a LINE content reference: ${attachment.reference.kind}`);
    if (attachment.size > maxBytes) throw new Error(`line content is larger than ${maxBytes} bytes (${attachment.size})`);
    const content = await this.blob.getMessageContent(attachment.reference.id);
    const stream = Readable.toWeb(content) as ReadableStream<Uint8Array>;
    return readCapped(
      stream as unknown as globalThis.ReadableStream<Uint8Array>,
      maxBytes,
      (size) => new Error(`line content is larger than ${maxBytes} bytes (${size})`),
    );
  };

  /** /status: a used-up push quota for everyone; for admins the month's quota and use and the webhook check. */
  /** A push to the user (it costs one message of the month's quota, like a reminder). */
  sendPrivately: NonNullable<PlatformAdapter['sendPrivately']> = async (userId, text) => {
    await this.client.pushMessage({ to: userId, messages: [{ type: 'text', text }] });
  };

  statusLines: NonNullable<PlatformAdapter['statusLines']> = async (language, forAdmin) => {
    const lines: string[] = [];
    if (this.quotaExhausted) lines.push(say(statusStrings.exhausted, language, { seconds: Math.round(this.options.replyWindowMs / 1000) }));
    if (!forAdmin) return lines;
    const webhook = checkLineWebhook(this.client, this.options.publicBaseUrl);
    try {
      const [quota, consumption] = await Promise.all([this.client.getMessageQuota(), this.client.getMessageQuotaConsumption()]);
      const limit = quota.type === 'limited' && quota.value !== undefined ? String(quota.value) : say(statusStrings.unlimited, language);
      lines.push(say(statusStrings.quota, language, { used: consumption.totalUsage, limit }));
    } catch (error) {
      lines.push(say(statusStrings.quotaUnknown, language, { problem: lineErrorMessage(error) }));
    }
    lines.push(describeWebhookCheck(await webhook, language));
    return lines;
  };

  /** A reminder costs a push: the month's quota and use (undefined when LINE does not say), and whether LINE refused one. */
  pushQuota: NonNullable<PlatformAdapter['pushQuota']> = async () => {
    try {
      const [quota, consumption] = await Promise.all([this.client.getMessageQuota(), this.client.getMessageQuotaConsumption()]);
      const limit = quota.type === 'limited' && quota.value !== undefined ? quota.value : undefined;
      return { used: consumption.totalUsage, ...(limit === undefined ? {} : { limit }), exhausted: this.quotaExhausted };
    } catch {
      return this.quotaExhausted ? { used: 0, exhausted: true } : undefined;
    }
  };

  private async logWebhookCheck(): Promise<void> {
    const check = await checkLineWebhook(this.client, this.options.publicBaseUrl);
    const line = describeWebhookCheck(check, this.options.language);
    if (webhookNeedsAttention(check)) this.options.logger.warn({ webhook: check }, line);
    else this.options.logger.info({ webhook: check }, line);
  }

  /** Stores every message of the batch in order; join events get their greeting after. */
  private async takeEvents(events: webhook.Event[]): Promise<void> {
    const handler = this.handler;
    if (!handler) throw new Error('line adapter not started');
    const store = new LineMessageStore(handler);
    // Kept before any is read: a message may quote one of the same batch.
    const seen = events.flatMap((event) => seenOf(event) ?? []);
    // Best effort: a message the store missed is only an unknown quote later; it must not stop the batch being stored.
    await Promise.all(
      seen.map((message) =>
        store.remember(message.chatId, message.messageId, message.seen).catch((error: unknown) => {
          this.options.logger.warn({ chatId: message.chatId, error: describeError(error) }, 'line: message not kept for quotes');
        }),
      ),
    );
    const messages = await normalizeLineEvents(events, {
      isBotMessage: (id) => handler.hasRecord(`line-sent:${id}`),
      quotedMessage: (chatId, id) => store.quoted(chatId, id),
      replyWindowMs: this.options.replyWindowMs,
    });
    for (const message of messages) await handler.accept(message);
    for (const event of events) if (event.type === 'join') void this.track(this.greet(event as webhook.JoinEvent));
  }

  private async greet(event: webhook.JoinEvent): Promise<void> {
    const chatId = chatIdOf(event.source);
    if (!chatId) return;
    try {
      const ids = await sendBubbles(
        { chatId, replyToken: event.replyToken, replyTokenFresh: true, retrySeed: `join:${event.webhookEventId}` },
        [{ type: 'text', text: say(joinGreeting, this.options.language) }],
        {
          client: this.client,
          logger: this.options.logger,
          sleep: this.options.sleep ?? timerSleep,
          onQuotaExhausted: () => (this.quotaExhausted = true),
          observeDelivery: this.options.observeDelivery,
        },
      );
      await this.recordSent(
        chatId,
        ids.map((id) => ({ id, text: say(joinGreeting, this.options.language) })),
      );
    } catch (error) {
      this.options.logger.warn({ chatId, error: describeError(error) }, 'line: join greeting not sent');
    }
  }

  /** The bot's sent messages: known as its own when quoted, and their text for a quote (message-store.ts). */
  private async recordSent(chatId: string, sent: readonly SentBubble[]): Promise<void> {
    const handler = this.handler;
    if (!handler) return;
    const store = new LineMessageStore(handler);
    const seen = (text: string) => ({ author: this.botName ?? 'Saeng', byBot: true, text, sentAt: Date.now() });
    await Promise.all(sent.flatMap(({ id, text }) => [handler.rememberRecord(`line-sent:${id}`, sentIdsTtlSeconds), store.remember(chatId, id, seen(text))]));
  }

  private track<Result>(work: Promise<Result>): Promise<Result> {
    this.inFlight.add(work);
    const forget = (): void => void this.inFlight.delete(work);
    void work.then(forget, forget);
    return work;
  }
}

export function createLineAdapter(options: LineAdapterOptions): PlatformAdapter {
  return new LineAdapter(options);
}
