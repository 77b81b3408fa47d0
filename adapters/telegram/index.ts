import { Telegraf } from 'telegraf';
import type { Update, UserFromGetMe } from 'telegraf/types';
import type { AdapterIdentity, DeliveryObserver, InboundHandler, PlatformAdapter, WebhookRoute } from '../../src/shared/channel.js';
import { telegramCapabilities } from './capabilities.js';
import type { SingletonLease } from '../../src/shared/lease.js';
import type { Logger } from '../../src/shared/log.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { AdminStatus } from './admin-status.js';
import { publishCommandMenu, type CommandMenu } from './command-menu.js';
import { TelegramDelivery } from './delivery.js';
import { downloadTelegramFile } from './download.js';
import { telegramErrorText } from './error-text.js';
import { TelegramIntake } from './intake.js';
import { LeasedPolling } from './leased-polling.js';
import { pollingStatusLines } from './polling-status.js';
import { telegramResponder } from './responder.js';
import { UpdatePoller } from './polling.js';
import { timerScheduler, timerSleep, type Scheduler, type Sleep } from '../common/scheduler.js';
import { telegramWebhookRoute, webhookSecretPattern } from './webhook.js';
import { WebhookGate } from '../common/webhook-gate.js';
import { malformedWebhookSecret, missingWebhookSecret, refusedToken, refusedWebhookUrl } from './config-errors.js';
import { telegramMessageLink } from './message-link.js';

// The Telegram adapter's face (docs/architecture.md, "Adding a platform"): telegraf 4.16.3 over the Bot API, long
// polling by default or a webhook behind the HTTP server, messages stored through intake.ts, answers sent through
// delivery.ts. Nothing here logs the token or a URL that holds it. With several bot processes, `pollingLease` makes
// only its holder poll (leased-polling.ts); a webhook needs none, every process takes the updates sent to it.

export type { CommandMenu } from './command-menu.js';
export { telegramWebhookPath } from './webhook.js';

export interface TelegramAdapterOptions {
  token: string;
  /** TELEGRAM_API_ROOT; default https://api.telegram.org. */
  apiRoot?: string;
  /** Webhook mode (TELEGRAM_WEBHOOK_URL / TELEGRAM_WEBHOOK_SECRET); long polling without it. */
  webhook?: { url: string; secret: string | undefined };
  logger: Logger;
  language: Language;
  /** The largest photo size worth choosing (the core's attachment cap). */
  maxImageBytes: number;
  commandMenu: CommandMenu;
  /** How long a getChatMember answer counts. */
  adminCacheMs?: number;
  albumQuietMs?: number;
  scheduler?: Scheduler;
  /** Waits between polls after a failure. */
  sleep?: Sleep;
  /** The long-poll timeout in seconds (default 50). */
  pollTimeoutSeconds?: number;
  /** Counts messages sent, retries and 429s (src/metrics.ts). */
  observeDelivery?: DeliveryObserver;
  /**
   * Several processes of this bot (sharing REDIS_URL): long polling only while this process holds the lease,
   * standby otherwise. Not used in webhook mode.
   */
  pollingLease?: SingletonLease;
}

/** How long a webhook delivery during the start waits for getMe before its 503 (Telegram delivers it again). */
const webhookStartWaitMs = 10_000;

/** Only messages: edits, reactions and member updates are not questions. */
const allowedUpdates = ['message'] as const;

class TelegramAdapter implements PlatformAdapter {
  readonly platform = 'telegram';
  readonly capabilities = telegramCapabilities;
  readonly routes: readonly WebhookRoute[] | undefined;
  private readonly bot: Telegraf;
  private readonly delivery: TelegramDelivery;
  private readonly adminStatus: AdminStatus;
  private intake: TelegramIntake | undefined;
  private poller: UpdatePoller | undefined;
  private polling: Promise<void> | undefined;
  private leasedPolling: LeasedPolling | undefined;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** Opens once getMe answered (the intake needs the bot's id and username), closes at stop. */
  private readonly gate = new WebhookGate();

  constructor(private readonly options: TelegramAdapterOptions) {
    this.bot = new Telegraf(options.token, { telegram: { apiRoot: options.apiRoot ?? 'https://api.telegram.org' } });
    this.delivery = new TelegramDelivery({
      telegram: this.bot.telegram,
      logger: options.logger,
      ...(options.scheduler ? { scheduler: options.scheduler } : {}),
      ...(options.observeDelivery ? { observeDelivery: options.observeDelivery } : {}),
    });
    this.adminStatus = new AdminStatus({ telegram: this.bot.telegram, logger: options.logger, ttlMs: options.adminCacheMs ?? 60_000 });
    this.bot.on('message', (context) => this.track(this.intake?.handle(context.message)));
    this.bot.catch((error) => {
      this.options.logger.error({ error: telegramErrorText(error) }, 'telegram update not stored');
      // Not confirmed then: a webhook answers 500 and Telegram sends it again; polling asks for it again.
      throw error;
    });
    const secret = options.webhook?.secret;
    this.routes =
      options.webhook && secret
        ? [
            telegramWebhookRoute({
              secret,
              // A delivery during the start waits a little for getMe, then gets a 503 Telegram delivers again after.
              accepting: () => this.gate.wait(webhookStartWaitMs),
              handleUpdate: (update) => this.handleWebhookUpdate(update),
              log: options.logger,
            }),
          ]
        : undefined;
  }

  async start(handler: InboundHandler): Promise<AdapterIdentity> {
    this.checkWebhookSettings();
    const me = await this.bot.telegram.getMe().catch((error: unknown) => Promise.reject(refusedToken(error) ?? error));
    // Set by hand, so launch() and handleUpdate() do not ask again.
    this.bot.botInfo = me;
    this.warnAboutPrivacy(me);
    this.intake = new TelegramIntake({
      bot: { id: me.id, username: me.username },
      handler,
      adminStatus: this.adminStatus,
      logger: this.options.logger,
      maxImageBytes: this.options.maxImageBytes,
      scheduler: this.options.scheduler ?? timerScheduler,
      albumQuietMs: this.options.albumQuietMs ?? 1_500,
      onChatActive: (chatId) => this.delivery.markReachable(chatId),
      onChatMoved: (from, to) => this.delivery.chatMoved(from, to),
    });
    this.gate.open();
    await publishCommandMenu(this.bot.telegram, this.options.commandMenu);
    if (this.options.webhook) {
      await this.bot.telegram
        .setWebhook(this.options.webhook.url, { secret_token: this.options.webhook.secret, allowed_updates: [...allowedUpdates] })
        .catch((error: unknown) => Promise.reject(refusedWebhookUrl(error) ?? error));
      this.options.logger.info({ username: me.username, mode: 'webhook' }, 'telegram bot started');
    } else if (this.options.pollingLease) {
      this.startLeasedPolling(this.options.pollingLease);
      this.options.logger.info({ username: me.username, mode: 'polling', lease: true }, 'telegram bot started: polls while it holds the polling lease');
    } else {
      await this.startPolling();
      this.options.logger.info({ username: me.username, mode: 'polling' }, 'telegram bot started');
    }
    return { username: me.username, readsAllGroupMessages: me.can_read_all_group_messages };
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.gate.close();
    this.intake?.flush();
    // Gives the lease up once the batch in hand is stored and confirmed: the next process polls from there.
    await this.leasedPolling?.stop();
    if (this.poller) {
      this.poller.stop();
      // The loop settles once the batch in hand is stored and its offset confirmed.
      await this.polling;
    }
    await Promise.allSettled([...this.inFlight]);
  }

  messageLink: NonNullable<PlatformAdapter['messageLink']> = (message) => telegramMessageLink(message);

  responderFor: PlatformAdapter['responderFor'] = (message) =>
    telegramResponder(message, { delivery: this.delivery, logger: this.options.logger, language: this.options.language });

  /** A private chat's id is the user's id; without preview (the link is a one-time credential). */
  sendPrivately: NonNullable<PlatformAdapter['sendPrivately']> = async (userId, text) => {
    await this.bot.telegram.sendMessage(Number(userId), text, { link_preview_options: { is_disabled: true } });
  };

  /** `telegram:<chat id>` and a user id: getChatMember (cached a minute, like the commands' check). */
  isSpaceAdmin: NonNullable<PlatformAdapter['isSpaceAdmin']> = async (spaceKey, userId) => {
    const chatId = Number(spaceKey.slice('telegram:'.length));
    const user = Number(userId);
    if (!spaceKey.startsWith('telegram:') || !Number.isSafeInteger(chatId) || !Number.isSafeInteger(user)) return undefined;
    return this.adminStatus.isAdministrator(chatId, user);
  };

  download: PlatformAdapter['download'] = (attachment, maxBytes) => downloadTelegramFile(this.bot.telegram, attachment, maxBytes);

  /** /status (admins): standby or polling under the lease, and a 409 Conflict from a poller outside it. */
  statusLines: NonNullable<PlatformAdapter['statusLines']> = async (language, forAdmin) =>
    forAdmin
      ? pollingStatusLines({ role: this.leasedPolling?.role, inConflict: this.leasedPolling?.inConflict ?? this.poller?.inConflict ?? false }, language)
      : [];

  /** Long polling through our own loop (polling.ts): an update is confirmed only once it is stored. */
  private async startPolling(): Promise<void> {
    const { poller, running } = await this.startPoller();
    this.poller = poller;
    this.polling = running.catch((error: unknown) => {
      if (!this.stopped) this.options.logger.error({ error: telegramErrorText(error) }, 'telegram polling stopped: no more updates are received');
    });
  }

  private async startPoller(): Promise<{ poller: UpdatePoller; running: Promise<void> }> {
    // A webhook left from an earlier set-up makes every getUpdates fail with 409.
    await this.bot.telegram.deleteWebhook();
    const poller = new UpdatePoller({
      telegram: this.bot.telegram,
      allowedUpdates,
      handle: (update) => this.bot.handleUpdate(update),
      logger: this.options.logger,
      sleep: this.options.sleep ?? timerSleep,
      ...(this.options.pollTimeoutSeconds === undefined ? {} : { timeoutSeconds: this.options.pollTimeoutSeconds }),
    });
    return { poller, running: (await poller.start()).running };
  }

  /** In the background: start() does not wait for the lease, a process on standby is up and answering. */
  private startLeasedPolling(lease: SingletonLease): void {
    this.leasedPolling = new LeasedPolling({
      lease,
      startPoller: () => this.startPoller(),
      logger: this.options.logger,
      sleep: this.options.sleep ?? timerSleep,
    });
    this.leasedPolling.start();
  }

  runningState(): 'running' | 'standby' {
    return this.leasedPolling?.role === 'standby' ? 'standby' : 'running';
  }

  private async handleWebhookUpdate(update: Update): Promise<void> {
    await this.bot.handleUpdate(update);
  }

  /** Tracks a message being stored, so stop() waits for it. */
  private track(handling: Promise<void> | undefined): Promise<void> | undefined {
    if (!handling) return undefined;
    this.inFlight.add(handling);
    const forget = (): void => void this.inFlight.delete(handling);
    void handling.then(forget, forget);
    return handling;
  }

  private checkWebhookSettings(): void {
    const webhook = this.options.webhook;
    if (!webhook) return;
    if (!webhook.secret) throw missingWebhookSecret();
    if (!webhookSecretPattern.test(webhook.secret)) throw malformedWebhookSecret();
  }

  private warnAboutPrivacy(me: UserFromGetMe): void {
    if (me.can_read_all_group_messages) return;
    this.options.logger.warn({ username: me.username, warning: 'telegram-privacy-mode' }, say(privacyModeWarning, this.options.language));
  }
}

/** Meant for the person reading `npm run logs`: in BOT_LANGUAGE. */
const privacyModeWarning: Localized = {
  th: 'Telegram: privacy mode เปิดอยู่ ในกลุ่มบอทจะเห็นเฉพาะ /คำสั่ง@ชื่อบอท และข้อความที่ตอบกลับข้อความของบอท ไม่เห็น @mention — ปิดได้ที่ @BotFather (/setprivacy → Disable) แล้วลบบอทออกจากแต่ละกลุ่มและเชิญเข้ามาใหม่ (docs/setup-telegram.md)',
  en: 'Telegram privacy mode is on: in groups the bot only sees /commands@bot and replies to its own messages, not @mentions. Turn it off in @BotFather (/setprivacy → Disable), then remove the bot from each group and add it again (docs/setup-telegram.md)',
};

export function createTelegramAdapter(options: TelegramAdapterOptions): PlatformAdapter {
  return new TelegramAdapter(options);
}
