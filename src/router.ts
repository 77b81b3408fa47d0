import type { Keyv } from 'keyv';
import type { TurnInput } from '../agent/agent.js';
import type { TurnOutcome } from '../agent/turn.js';
import { admit, type Admission } from './admission.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import { say, type Localized } from './shared/i18n.js';
import { detectImageType } from './shared/image-type.js';
import type { ConversationQueue, UserQuota } from './limits.js';
import type { Logger } from './shared/log.js';
import type { Outbound } from './outbound.js';
import type { InboundMessage, Language, ProgressEvent, Reply, TurnImage, TurnRecord } from './shared/types.js';
import { describeError } from './shared/describe-error.js';

export interface TurnRunner {
  runTurn(input: TurnInput): Promise<TurnOutcome>;
}

export interface RouterDependencies {
  dedupe: Keyv;
  dedupeTtlMs: number;
  queue: ConversationQueue;
  quota: UserQuota;
  commands: CommandDispatcher;
  agent: TurnRunner;
  outbound: Outbound;
  settings: { language: Language; botName?: string; maxMessageChars: number; maxAttachmentBytes: number };
  log: Logger;
  /** Told about every handled message (metrics). */
  observe?: (handled: HandledMessage) => void;
}

/** How the adapter talks back: replies in order, and progress notes for long work. */
export interface Responder {
  send(reply: Reply): Promise<void>;
  progress?(event: ProgressEvent): Promise<void>;
}

export interface HandledMessage {
  admission: Admission;
  /** Exactly what was sent (after the outbound DLP scan). */
  replies: Reply[];
  turn?: TurnRecord;
}

const quotaNotice: Localized = {
  th: 'คุณส่งข้อความถี่เกินไป (สูงสุด {limit} ข้อความต่อนาที) กรุณารอสักครู่แล้วลองใหม่',
  en: 'You are sending messages too fast (at most {limit} per minute). Please wait a moment and try again.',
};
const tooLongNotice: Localized = {
  th: 'ข้อความยาวเกินไป ({length} ตัวอักษร รับได้สูงสุด {limit}) กรุณาย่อให้สั้นลง หรือส่งเป็นไฟล์แนบ',
  en: 'That message is too long ({length} characters, at most {limit}). Please shorten it or send it as a file.',
};
const notAnImageNotice: Localized = {
  th: 'ไฟล์ "{name}" ไม่ใช่รูปภาพที่อ่านได้ (รองรับ PNG, JPEG, GIF, WebP, BMP) จะตอบจากข้อความอย่างเดียว',
  en: 'The file "{name}" is not an image I can read (PNG, JPEG, GIF, WebP, BMP); answering from the text only.',
};
const imageFailedNotice: Localized = {
  th: 'อ่านรูปภาพ "{name}" ไม่ได้ ({problem}) จะตอบจากข้อความอย่างเดียว',
  en: 'Could not read the image "{name}" ({problem}); answering from the text only.',
};

/** Admission → dedupe → quota → per-conversation queue → command or agent turn → outbound DLP → send. */
export class MessageRouter {
  private readonly checking = new Set<string>();

  constructor(private readonly dependencies: RouterDependencies) {}

  async handle(message: InboundMessage, responder: Responder): Promise<HandledMessage> {
    const handled = await this.route(message, responder);
    this.dependencies.observe?.(handled);
    return handled;
  }

  private async route(message: InboundMessage, responder: Responder): Promise<HandledMessage> {
    const { commands, settings, log } = this.dependencies;
    const admission = admit(message, { botName: settings.botName, knownCommands: commands.names });
    const base = { platform: message.platform, conversation: message.conversationKey, messageId: message.messageId };
    if (admission.kind === 'ignore') {
      log.debug({ ...base, reason: admission.reason }, 'message ignored');
      return { admission, replies: [] };
    }
    if (await this.isDuplicate(message)) {
      log.info({ ...base }, 'duplicate delivery ignored');
      return { admission: { kind: 'ignore', reason: 'duplicate' }, replies: [] };
    }
    const replies: Reply[] = [];
    const send = async (reply: Reply) => {
      const safe = await this.dependencies.outbound.prepare({ ...reply, replyTo: reply.replyTo ?? message.messageId }, message.conversationKey);
      replies.push(safe);
      await responder.send(safe);
    };
    const progress = (event: ProgressEvent) => {
      if (!responder.progress) return;
      void this.dependencies.outbound
        .prepare({ text: event.text, files: [] }, message.conversationKey)
        .then((safe) => responder.progress?.({ source: event.source, text: safe.text }))
        .catch((error: unknown) => log.warn({ ...base, error: String(error) }, 'progress note failed'));
    };

    // Everything that calls the model counts against the user's quota; cheap commands do not.
    if (admission.kind === 'dispatch' || commands.usesModel(admission.command.name)) {
      const userKey = `${message.platform}:${message.sender.id}`;
      if (!(await this.dependencies.quota.take(userKey))) {
        log.info({ ...base }, 'user quota exceeded');
        if (this.dependencies.quota.shouldNotify(userKey)) {
          await send({ text: say(quotaNotice, settings.language, { limit: this.dependencies.quota.perMinute }), files: [] });
        }
        return { admission, replies };
      }
    }

    if (admission.kind === 'command') {
      return this.dependencies.queue.run(message.conversationKey, async () => {
        const result = await commands.run(admission.command, message, progress);
        await send({ text: result.text, files: result.files ?? [] });
        return { admission, replies };
      });
    }

    if (message.text.length > settings.maxMessageChars) {
      await send({ text: say(tooLongNotice, settings.language, { length: message.text.length, limit: settings.maxMessageChars }), files: [] });
      return { admission, replies };
    }

    return this.dependencies.queue.run(message.conversationKey, async () => {
      const images = await this.loadImages(message, send);
      const outcome = await this.dependencies.agent.runTurn({
        conversationKey: message.conversationKey,
        spaceKey: message.spaceKey,
        question: message.text,
        speakerName: message.chatKind === 'group' ? message.sender.name : undefined,
        images,
        progress,
      });
      await send(outcome.reply);
      return { admission, replies, turn: outcome.record };
    });
  }

  /** Persisted with a TTL, so a re-delivered message (webhook retry, reconnect) is never answered twice. */
  private async isDuplicate(message: InboundMessage): Promise<boolean> {
    const key = `${message.platform}:${message.messageId}`;
    // Checked synchronously first: two deliveries arriving together must not both pass the async lookup.
    if (this.checking.has(key)) return true;
    this.checking.add(key);
    try {
      if (await this.dependencies.dedupe.get(key)) return true;
      await this.dependencies.dedupe.set(key, 1, this.dependencies.dedupeTtlMs);
      return false;
    } finally {
      this.checking.delete(key);
    }
  }

  private async loadImages(message: InboundMessage, send: (reply: Reply) => Promise<void>): Promise<TurnImage[]> {
    const images: TurnImage[] = [];
    for (const attachment of message.attachments.filter((item) => item.kind === 'image').slice(0, 4)) {
      try {
        if (attachment.size > this.dependencies.settings.maxAttachmentBytes) throw new Error(`> ${this.dependencies.settings.maxAttachmentBytes} bytes`);
        const bytes = await attachment.fetch();
        // Trust the bytes, not the declared type: a renamed PDF must not reach the model as an image.
        const mime = detectImageType(bytes);
        if (!mime) {
          await send({ text: say(notAnImageNotice, this.dependencies.settings.language, { name: attachment.name }), files: [] });
          continue;
        }
        images.push({ name: attachment.name, mime, bytes });
      } catch (error) {
        const problem = describeError(error);
        await send({ text: say(imageFailedNotice, this.dependencies.settings.language, { name: attachment.name, problem }), files: [] });
      }
    }
    return images;
  }
}
