import type { Message } from 'telegraf/types';
import type { InboundHandler } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import type { InboundMessage } from '../../src/shared/types.js';
import type { AdminStatus } from './admin-status.js';
import { AlbumCollector } from './album.js';
import { mediaGroupOf, migrationOf, normalizeTelegramMessage, type BotIdentity } from './inbound.js';
import type { Scheduler } from '../common/scheduler.js';

// From a Telegram message to a stored InboundMessage (docs/architecture.md, "Data flow of one message", steps 1–2):
// normalize, resolve the sender's admin status for commands in groups, fold albums into one question, then
// `accept`. `handle` resolves once the message (or the album it completes) is stored: telegraf acknowledges an
// update (polling: the next getUpdates offset; webhook: the 200) only after its handler resolved.

export interface TelegramIntakeOptions {
  bot: BotIdentity;
  handler: InboundHandler;
  adminStatus: AdminStatus;
  logger: Logger;
  maxImageBytes: number;
  scheduler: Scheduler;
  /** How long an album waits for another member after its last one. */
  albumQuietMs: number;
  /** A chat wrote again: deliveries there may resume. */
  onChatActive(chatId: number): void;
  /** A group became a supergroup: sends to the old id go to the new one. */
  onChatMoved(from: number, to: number): void;
}

interface Waiting {
  resolve(): void;
  reject(error: unknown): void;
}

export class TelegramIntake {
  private readonly albums: AlbumCollector;
  /** Album members waiting for their album to be stored, per conversation (one open album each). */
  private readonly waiting = new Map<string, Waiting[]>();
  /** The storing of the message each conversation emitted last. */
  private readonly lastStored = new Map<string, Promise<void>>();
  /** accept() calls in the order messages were emitted, so a chat's queue keeps Telegram's order. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Messages pass normalization and the admin check one at a time (see handle). */
  private order: Promise<void> = Promise.resolve();

  constructor(private readonly options: TelegramIntakeOptions) {
    this.albums = new AlbumCollector({ scheduler: options.scheduler, quietMs: options.albumQuietMs, emit: (message) => this.emit(message) });
  }

  /**
   * Handlers of one getUpdates batch run side by side, and an admin check awaits getChatMember: so the steps up to
   * handing a message to the album collector run one message at a time, in arrival order, and only the waiting for
   * the store happens side by side (an album member waits for the message that closes its album).
   */
  async handle(message: Message): Promise<void> {
    const admitted = this.order.then(() => this.admit(message));
    this.order = admitted.then(
      () => undefined,
      () => undefined,
    );
    const waiting = await admitted;
    await waiting?.stored;
  }

  /** Normalizes and hands a message on; what to wait for until it is stored (nothing for a message not kept). */
  private async admit(message: Message): Promise<{ stored: Promise<void> | undefined } | undefined> {
    const migration = migrationOf(message);
    if (migration) {
      this.options.logger.info({ from: migration.from, to: migration.to }, 'telegram group was upgraded to a supergroup: it has a new chat id');
      this.options.onChatMoved(migration.from, migration.to);
      // Its knowledge bases, bindings and history follow; confirmed to Telegram only once they have.
      return { stored: this.options.handler.moveSpace({ from: `telegram:${migration.from}`, to: `telegram:${migration.to}` }) };
    }
    const normalized = this.normalize(message);
    if (!normalized) return undefined;
    this.options.onChatActive(message.chat.id);
    await this.resolveAdmin(message, normalized);
    const key = normalized.conversationKey;
    const albumId = mediaGroupOf(message);
    this.albums.add(normalized, albumId);
    if (albumId === undefined) return { stored: this.lastStored.get(key) };
    // Registered after add(): an album that add() closed is an earlier one, not this member's.
    return { stored: new Promise<void>((resolve, reject) => this.waiting.set(key, [...(this.waiting.get(key) ?? []), { resolve, reject }])) };
  }

  /**
   * A message that cannot be read is dropped with a log line, never thrown: a throw leaves it unconfirmed, and
   * Telegram would send it again for ever (webhook) or polling would stop at it.
   */
  private normalize(message: Message): InboundMessage | undefined {
    try {
      return normalizeTelegramMessage(message, this.options.bot, { maxImageBytes: this.options.maxImageBytes });
    } catch (error) {
      this.options.logger.warn({ messageId: message.message_id, error: String(error) }, 'telegram: message cannot be read; dropped');
      return undefined;
    }
  }

  /** Stores every album still open (at shutdown). */
  flush(): void {
    this.albums.flush();
  }

  /** Commands in groups need the platform's admin flag (/kb); other messages are not worth the getChatMember call. */
  private async resolveAdmin(message: Message, normalized: InboundMessage): Promise<void> {
    if (normalized.chatKind !== 'group' || normalized.sender.isPlatformAdmin || !normalized.text.startsWith('/')) return;
    if (!message.from || message.sender_chat) return;
    normalized.sender.isPlatformAdmin = await this.options.adminStatus.isAdministrator(message.chat.id, message.from.id);
  }

  private emit(message: InboundMessage): void {
    const key = message.conversationKey;
    const members = this.waiting.get(key) ?? [];
    this.waiting.delete(key);
    const stored = this.tail.then(() => this.options.handler.accept(message)).then(() => undefined);
    this.tail = stored.catch(() => undefined);
    this.lastStored.set(key, stored);
    const forget = (): void => {
      if (this.lastStored.get(key) === stored) this.lastStored.delete(key);
    };
    void stored.then(forget, forget);
    void stored.then(
      () => members.forEach((member) => member.resolve()),
      (error: unknown) => members.forEach((member) => member.reject(error)),
    );
  }
}
