import type { TurnInput } from '../agent/agent.js';
import type { TurnOutcome } from '../agent/turn.js';
import { admit, type Admission } from './admission.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import type { AttachmentDownloader } from './inbound/attachment-downloader.js';
import type { DuplicateDeliveries } from './inbound/duplicate-deliveries.js';
import { loadImages } from './inbound/load-images.js';
import type { TurnQueue } from './limits/turn-queue.js';
import type { UserQuota } from './limits/user-quota.js';
import type { Outbound } from './outbound.js';
import type { InboundHandler, Responder } from './shared/channel.js';
import { say, type Localized } from './shared/i18n.js';
import type { Logger } from './shared/log.js';
import type { Attachment, InboundMessage, Language, Platform, ProgressEvent, Reply, TurnRecord } from './shared/types.js';

export interface TurnRunner {
  runTurn(input: TurnInput): Promise<TurnOutcome>;
}

export interface RouterDependencies {
  duplicates: DuplicateDeliveries;
  queue: TurnQueue;
  quota: UserQuota;
  commands: CommandDispatcher;
  agent: TurnRunner;
  outbound: Outbound;
  download: AttachmentDownloader;
  /** The bot's username on a platform, once its adapter has reported it. */
  botUsername(platform: Platform): string | undefined;
  settings: { language: Language; maxMessageChars: number; maxAttachmentBytes: number };
  log: Logger;
  /** Told about every handled message (metrics). */
  observe?: (handled: HandledMessage) => void;
}

export interface HandledMessage {
  admission: Admission;
  /** Exactly what was sent (after the outbound DLP scan). */
  replies: Reply[];
  turn?: TurnRecord;
}

/** The core's inbound handler; callers other than adapters (CLI, tests) also read what was done. */
export interface MessageRouter extends InboundHandler {
  handle(message: InboundMessage, responder: Responder): Promise<HandledMessage>;
}

const quotaNotice: Localized = {
  th: 'คุณส่งข้อความถี่เกินไป (สูงสุด {limit} ข้อความต่อนาที) กรุณารอสักครู่แล้วลองใหม่',
  en: 'You are sending messages too fast (at most {limit} per minute). Please wait a moment and try again.',
};
const tooLongNotice: Localized = {
  th: 'ข้อความยาวเกินไป ({length} ตัวอักษร รับได้สูงสุด {limit}) กรุณาย่อให้สั้นลง หรือส่งเป็นไฟล์แนบ',
  en: 'That message is too long ({length} characters, at most {limit}). Please shorten it or send it as a file.',
};

/** Admission → dedupe → quota → per-conversation queue → command or agent turn → outbound DLP → send. */
export function createRouter(dependencies: RouterDependencies): MessageRouter {
  const route = async (message: InboundMessage, responder: Responder): Promise<HandledMessage> => {
    const { commands, settings, log } = dependencies;
    const admission = admit(message, { botUsername: dependencies.botUsername(message.platform), knownCommands: commands.names });
    const base = { platform: message.platform, conversation: message.conversationKey, messageId: message.messageId };
    if (admission.kind === 'ignore') {
      log.debug({ ...base, reason: admission.reason }, 'message ignored');
      return { admission, replies: [] };
    }
    if (await dependencies.duplicates.seen(message)) {
      log.info({ ...base }, 'duplicate delivery ignored');
      return { admission: { kind: 'ignore', reason: 'duplicate' }, replies: [] };
    }
    const replies: Reply[] = [];
    const send = async (reply: Reply) => {
      const safe = await dependencies.outbound.prepare({ ...reply, replyTo: reply.replyTo ?? message.messageId }, message.conversationKey);
      replies.push(safe);
      await responder.send(safe);
    };
    const progress = (event: ProgressEvent) => {
      if (!responder.progress) return;
      void dependencies.outbound
        .prepare({ text: event.text, files: [] }, message.conversationKey)
        .then((safe) => responder.progress?.({ source: event.source, text: safe.text }))
        .catch((error: unknown) => log.warn({ ...base, error: String(error) }, 'progress note failed'));
    };
    const download = (attachment: Attachment) => dependencies.download(message.platform, attachment, settings.maxAttachmentBytes);

    // Everything that calls the model counts against the user's quota; cheap commands do not.
    if (admission.kind === 'dispatch' || commands.usesModel(admission.command.name)) {
      const userKey = `${message.platform}:${message.sender.id}`;
      if (!(await dependencies.quota.take(userKey))) {
        log.info({ ...base }, 'user quota exceeded');
        if (await dependencies.quota.shouldNotify(userKey)) {
          await send({ text: say(quotaNotice, settings.language, { limit: dependencies.quota.perMinute }), files: [] });
        }
        return { admission, replies };
      }
    }

    if (admission.kind === 'command') {
      return dependencies.queue.run(message.conversationKey, async () => {
        const result = await commands.run(admission.command, message, { progress, download });
        await send({ text: result.text, files: result.files ?? [] });
        return { admission, replies };
      });
    }

    if (message.text.length > settings.maxMessageChars) {
      await send({ text: say(tooLongNotice, settings.language, { length: message.text.length, limit: settings.maxMessageChars }), files: [] });
      return { admission, replies };
    }

    return dependencies.queue.run(message.conversationKey, async () => {
      const images = await loadImages(message.attachments, { download, maxBytes: settings.maxAttachmentBytes, language: settings.language, send });
      const outcome = await dependencies.agent.runTurn({
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
  };

  return {
    handle: async (message, responder) => {
      const handled = await route(message, responder);
      dependencies.observe?.(handled);
      return handled;
    },
  };
}
