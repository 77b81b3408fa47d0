import { escapeMarkdown } from '../shared/markdown.js';
import { admit, type Admission } from './admission.js';
import type { CommandDispatcher } from '../commands/dispatcher.js';
import type { AttachmentDownloader } from './attachment-downloader.js';
import type { GroupContext } from './group-context.js';
import type { InboundQueue } from '../queue/inbound-queue.js';
import { lateNoteText, latenessOf, type LateSettings } from './late-answer.js';
import { missedMessagesText } from './missed-messages.js';
import { takeBurst, type BurstSettings } from './burst.js';
import type { ImageLimits } from '../images/inspect-image.js';
import { directReplies, ReplySink, type MessageReplies } from './reply-journal.js';
import type { FileLinks } from '../files/file-links.js';
import type { RecentAttachments } from './recent-attachments.js';
import type { TurnQueue } from '../limits/turn-queue.js';
import type { SpaceQuotas } from '../limits/space-quotas.js';
import type { SpaceSettingsStore } from '../settings/space-settings-store.js';
import type { SpaceSettings } from '../settings/space-settings.js';
import { answerQuestion } from './question-turn.js';
import { spaceChoices, type SpaceChoices } from './space-choices.js';
import { unreadableNoticeText } from './unreadable-notice.js';
import type { Outbound } from './outbound.js';
import type { Responder } from '../shared/channel.js';
import { takesFiles } from '../shared/command-table.js';
import { say, type Localized } from '../shared/i18n.js';
import type { Logger } from '../shared/log.js';
import type { TurnRunner } from '../shared/turn-runner.js';
import type { Attachment, InboundMessage, Language, Platform, ProgressEvent, Reply, TurnRecord } from '../shared/types.js';

export interface RouterDependencies {
  /** Download links for written files (PUBLIC_BASE_URL set), for platforms that cannot send files. */
  fileLinks?: Pick<FileLinks, 'linkFor'> | undefined;
  /** Dedupe of the direct path; the queued path is deduped when the message is accepted. */
  inbound: Pick<InboundQueue, 'remember'>;
  queue: TurnQueue;
  /** The per-user quota, bot-wide or the space's own (/settings quota). */
  quotas: Pick<SpaceQuotas, 'forSpace'>;
  /** Each space's /settings (docs/architecture.md, "Space settings"); absent: every space has the defaults. */
  spaceSettings?: Pick<SpaceSettingsStore, 'get'>;
  commands: CommandDispatcher;
  agent: TurnRunner;
  outbound: Outbound;
  download: AttachmentDownloader;
  /** Images sent just before a question join it (same sender, same chat, a few minutes). */
  recentAttachments: Pick<RecentAttachments, 'remember' | 'takeFor'>;
  /** A quoted document's text from its bytes (quoted-context.ts); absent: quoted documents are only named. */
  readDocument?: (bytes: Uint8Array, attachment: Attachment) => Promise<string | undefined>;
  /** The unaddressed chatter of a group, shown with the next question there. */
  groupContext: Pick<GroupContext, 'record' | 'contextFor'>;
  /** The bot's username on a platform, once its adapter has reported it. */
  botUsername(platform: Platform): string | undefined;
  settings: {
    language: Language;
    /** The words that call the bot under a space's name trigger when it named none. */
    botNames: readonly string[];
    maxMessageChars: number;
    maxAttachmentBytes: number;
    imageLimits: ImageLimits;
    /** Platforms whose answers are shown while written (STREAM_PLATFORMS); absent: none. */
    streamPlatforms?: ReadonlySet<Platform>;
  };
  /**
   * A reminder asked for in words (src/reminders/reminder-call.ts): the text `/remind` takes, else undefined.
   * Absent: such a message is a question like any other.
   */
  reminderRequest?: (message: InboundMessage, names: readonly string[]) => string | undefined;
  /**
   * Catch-up (src/catchup/): every message of a group that keeps them goes into its log, and a catch-up asked for in
   * words there is `/summary` (the words it takes; undefined: not one). Absent: off.
   */
  catchUp?: {
    record(message: InboundMessage, days: number): Promise<void>;
    summaryWords(message: InboundMessage): string[] | undefined;
  };
  /** A stale backlog (MAX_MESSAGE_AGE_MS, MISSED_MESSAGE_AGE_MS): late-noted or listed as missed; absent: off. */
  late?: LateSettings;
  /** Questions typed in a quick burst become one turn (BURST_WINDOW_MS, burst.ts); absent: off. */
  burst?: BurstSettings;
  log: Logger;
  /** Told about every handled message (metrics). */
  observe?: (handled: HandledMessage, message: InboundMessage) => void;
}

export interface HandledMessage {
  admission: Admission;
  /** Exactly what was sent (after the outbound DLP scan). */
  replies: Reply[];
  turn?: TurnRecord;
}

export interface MessageRouter {
  /** The direct path (CLI, tests): dedupe, then run and answer through `responder` in this call. */
  handle(message: InboundMessage, responder: Responder): Promise<HandledMessage>;
  /**
   * The queued path: one stored message, already deduped, run by the inbound worker inside its conversation's
   * slot. Replies go through `replies`: what an earlier attempt stored is delivered, never produced again.
   */
  process(message: InboundMessage, responder: Responder, replies: MessageReplies, hooks?: ProcessHooks): Promise<HandledMessage>;
  /** A stored message set aside after its handling was interrupted twice: the user hears so (DLP, journal). */
  setAside(message: InboundMessage, responder: Responder, replies: MessageReplies): Promise<Reply[]>;
}

export interface ProcessHooks {
  /**
   * The model's part is over (the answer is stored next): the worker frees the TURN_CONCURRENCY slot then, so a
   * send waiting on a platform's rate limit does not hold up other conversations' turns.
   */
  turnDone(): void;
  /** 1 the first time a stored message runs; more when it is resumed after a crash or taken over from a dead process. */
  attempt?: number;
  /** The responder of another stored message of the conversation: a burst's answer replies to its last message. */
  responderFor?(message: InboundMessage): Responder | undefined;
}

const sharedStateDownNotice: Localized = {
  th: 'ขออภัย ตอนนี้ระบบเก็บข้อมูลกลาง (Redis) ขัดข้องชั่วคราว จึงยังตอบไม่ได้ ลองส่งใหม่อีกครู่นะครับ',
  en: 'Sorry, the shared state server (Redis) is down for the moment, so I cannot answer yet. Please try again shortly.',
};
const quotaNotice: Localized = {
  th: 'คุณส่งข้อความถี่เกินไป (สูงสุด {limit} ข้อความต่อนาที) กรุณารอสักครู่แล้วลองใหม่',
  en: 'You are sending messages too fast (at most {limit} per minute). Please wait a moment and try again.',
};
const fileKeptHint: Localized = {
  th: 'ได้รับไฟล์ {names} แล้ว ผู้ดูแลพิมพ์ /kb add <คลัง> ภายในไม่กี่นาทีเพื่อเพิ่มเข้าคลังความรู้ (บอทอ่านเอกสารในแชตโดยตรงไม่ได้ อ่านได้เฉพาะรูปภาพ)',
  en: 'Got {names}. An admin can send /kb add <kb> within a few minutes to add it to a knowledge base (I cannot read documents in the chat directly, only images).',
};
const setAsideNotice: Localized = {
  th: 'ขออภัย ระบบขัดข้องระหว่างตอบข้อความนี้ จึงพักข้อความนี้ไว้และจะไม่ลองตอบอีก ลองส่งใหม่ด้วยถ้อยคำอื่น หรือแจ้งผู้ดูแลนะครับ',
  en: 'Sorry, the bot failed while handling this message, so it was set aside and will not be tried again. Please rephrase it or tell the admin.',
};

/** The word back for files sent alone. File names are the sender's: escaped, so `[click](https://…)` shows as typed. */
export function fileKeptText(attachments: readonly Pick<Attachment, 'name'>[], language: Language): string {
  return say(fileKeptHint, language, { names: attachments.map((attachment) => escapeMarkdown(attachment.name)).join(', ') });
}

/** Admission → quota → command or agent turn → outbound DLP → stored reply → send. */
export function createRouter(dependencies: RouterDependencies): MessageRouter {
  const { commands, settings, log } = dependencies;
  const logBase = (message: InboundMessage) => ({ platform: message.platform, conversation: message.conversationKey, messageId: message.messageId });
  const defaults = {
    language: settings.language,
    names: settings.botNames,
    streams: (message: InboundMessage) => settings.streamPlatforms?.has(message.platform) ?? false,
  };

  /** The space's /settings for this message, read once; a store that cannot be read leaves the defaults (logged). */
  const choicesFor = async (message: InboundMessage): Promise<SpaceChoices> => {
    let stored: SpaceSettings = {};
    try {
      stored = (await dependencies.spaceSettings?.get(message.spaceKey)) ?? {};
    } catch (error) {
      log.warn({ ...logBase(message), error: String(error) }, 'space settings unavailable: defaults used');
    }
    return spaceChoices(stored, message, defaults);
  };
  const admitted = (message: InboundMessage, choices: SpaceChoices) =>
    admit(message, {
      botUsername: dependencies.botUsername(message.platform),
      knownCommands: commands.names,
      ...(choices.trigger ? { trigger: choices.trigger } : {}),
    });
  /** Whether a waiting message would run a turn of its own (a burst joins it, a stale backlog's list covers it); same space, same choices. */
  const questionTest = (choices: SpaceChoices) => (other: InboundMessage) => admitted(other, choices).kind === 'dispatch';

  /** A message not for the bot: nothing is sent, but group chatter and its images are kept for the next question. */
  const ignored = async (message: InboundMessage, admission: Extract<Admission, { kind: 'ignore' }>): Promise<HandledMessage> => {
    log.debug({ ...logBase(message), reason: admission.reason }, 'message ignored');
    if (admission.reason === 'group-not-addressed' || admission.reason === 'file-only') await dependencies.recentAttachments.remember(message);
    if (admission.reason === 'group-not-addressed') await dependencies.groupContext.record(message);
    return { admission, replies: [] };
  };

  /** The burst a stored question starts (burst.ts); never on the direct path, nor for a missed one (one list instead). */
  const burstOf = async (message: InboundMessage, replies: MessageReplies, hooks: ProcessHooks | undefined, choices: SpaceChoices) => {
    const { burst, late } = dependencies;
    if (!burst || !hooks || (late && latenessOf(message, late) === 'missed')) return undefined;
    return takeBurst(message, replies, {
      settings: burst,
      isQuestion: questionTest(choices),
      resumed: (hooks.attempt ?? 1) > 1,
      maxChars: settings.maxMessageChars,
    });
  };

  /** Takes one unit of the user's quota in this space: true to go on; false when the reply (if any) is given. */
  const quotaAllows = async (message: InboundMessage, choices: SpaceChoices, final: (reply: Reply) => Promise<void>): Promise<boolean> => {
    const { quota, key } = dependencies.quotas.forSpace(message.spaceKey, `${message.platform}:${message.sender.id}`, choices.quotaPerMinute);
    const allowed = await quota.take(key).catch((error: unknown) => {
      // A shared quota (Redis) that cannot be reached: the user hears so, the message is answered, nothing crashes.
      log.warn({ ...logBase(message), error: String(error) }, 'user quota unavailable');
      return undefined;
    });
    if (allowed === undefined) {
      await final({ text: say(sharedStateDownNotice, choices.language), files: [] });
      return false;
    }
    if (!allowed) {
      log.info({ ...logBase(message) }, 'user quota exceeded');
      if (await quota.shouldNotify(key)) await final({ text: say(quotaNotice, choices.language, { limit: quota.perMinute }), files: [] });
    }
    return allowed;
  };

  /** The words that call the bot in this space (its name trigger's, else the defaults). */
  const callNames = (choices: SpaceChoices): readonly string[] => (choices.trigger?.mode === 'name' ? choices.trigger.names : settings.botNames);

  /** Runs one message in its conversation's slot (the caller holds it). */
  const route = async (
    received: InboundMessage,
    choices: SpaceChoices,
    receivedResponder: Responder,
    replies: MessageReplies,
    hooks?: ProcessHooks,
  ): Promise<HandledMessage> => {
    const admission = admitted(received, choices);
    const { language } = choices;
    // Logged once whatever happens next (the store drops a message it has): addressed or not, answered or not.
    if (choices.catchUpDays !== undefined) await dependencies.catchUp?.record(received, choices.catchUpDays);
    // A burst is answered as one message, in reply to its last one; its followers are covered with the answer.
    const burst = admission.kind === 'dispatch' ? await burstOf(received, replies, hooks, choices) : undefined;
    const message = burst?.message ?? received;
    const replyTarget = burst?.last ?? message;
    const responder = (burst && hooks?.responderFor?.(burst.last)) || receivedResponder;
    const base = logBase(message);
    const sink = new ReplySink(replies, responder);
    await sink.deliverEarlier();
    // The answer was stored before the restart: delivering it is all that was left.
    if (replies.answered) return { admission, replies: sink.sent };
    if (admission.kind === 'ignore') {
      const handled = await ignored(message, admission);
      // A file alone sent to the bot (a direct chat, or with its mention) gets a word back: it arrived, and what for.
      if (admission.reason === 'file-only' && (message.chatKind === 'direct' || message.mentionsBot || message.repliesToBot)) {
        const text = fileKeptText(message.attachments, language);
        await sink.final(await dependencies.outbound.prepare({ text, files: [] }, message.conversationKey, language));
        return { admission, replies: sink.sent };
      }
      return handled;
    }

    const prepare = async (reply: Reply) => {
      const safe = await dependencies.outbound.prepare({ ...reply, replyTo: reply.replyTo ?? replyTarget.messageId }, message.conversationKey, language);
      const links = dependencies.fileLinks;
      if (!links || safe.files.length === 0) return safe;
      // After the DLP scan: a link is only made for a file that may be sent at all.
      return {
        ...safe,
        files: safe.files.map((file) => {
          const link = links.linkFor(file.path);
          return link ? { ...file, link } : file;
        }),
      };
    };
    const notice = async (reply: Reply) => sink.notice(await prepare(reply));
    const final = async (reply: Reply) => {
      const prepared = await prepare(reply);
      // Covered only now, so a turn that fails leaves the followers to be answered on their own (burst.ts).
      await burst?.cover();
      await sink.final(prepared);
    };
    // No model call, so no quota: the line is the answer, stored and sent once like any other.
    if (admission.kind === 'unreadable') {
      await final({ text: unreadableNoticeText(admission.what, language), files: [] });
      return { admission, replies: sink.sent };
    }
    const progress = (event: ProgressEvent) => {
      if (!responder.progress) return;
      void dependencies.outbound
        .prepare({ text: event.text, files: [] }, message.conversationKey, language)
        .then((safe) => responder.progress?.({ source: event.source, text: safe.text }))
        .catch((error: unknown) => log.warn({ ...base, error: String(error) }, 'progress note failed'));
    };
    const download = (attachment: Attachment) => dependencies.download(message.platform, attachment, settings.maxAttachmentBytes);
    // Its age when its turn starts (late-answer.ts); a missed one and those behind it get one reply, no turn.
    const late = admission.kind === 'dispatch' && dependencies.late ? { ...dependencies.late, language } : undefined;
    const lateness = late ? latenessOf(message, late) : 'fresh';
    if (late && lateness === 'missed') {
      await final({ text: await missedMessagesText(message, replies, { settings: late, isQuestion: questionTest(choices) }), files: [] });
      return { admission, replies: sink.sent };
    }

    // "เตือนประชุมพรุ่งนี้ 9 โมง": the time is resolved by code, no model call (so no quota either).
    const reminder = admission.kind === 'dispatch' ? dependencies.reminderRequest?.(message, callNames(choices)) : undefined;
    if (reminder !== undefined) {
      const result = await commands.run(
        { name: 'remind', rest: `add ${reminder}`, words: ['add', ...reminder.split(/\s+/)] },
        message,
        { progress, download },
        language,
      );
      await final({ text: result.text, files: [] });
      return { admission, replies: sink.sent };
    }

    // Everything that calls the model counts against the user's quota; cheap commands do not. A resumed message was
    // counted when it first ran: a shared quota would otherwise charge the user again for a process that died.
    const firstRun = (hooks?.attempt ?? 1) === 1;
    if (firstRun && (admission.kind === 'dispatch' || commands.usesModel(admission.command.name)) && !(await quotaAllows(message, choices, final))) {
      return { admission, replies: sink.sent };
    }

    // "แสง สรุปให้หน่อยว่าคุยอะไรกัน" where the group keeps its messages: /summary over the log, not a turn over the last few.
    const summaryWords = admission.kind === 'dispatch' && choices.catchUpDays !== undefined ? dependencies.catchUp?.summaryWords(message) : undefined;
    if (summaryWords) {
      const result = await commands.run({ name: 'summary', rest: summaryWords.join(' '), words: summaryWords }, message, { progress, download }, language);
      await final({ text: result.text, files: [] });
      return { admission, replies: sink.sent };
    }

    if (admission.kind === 'command') {
      // Files and images sent just before (LINE sends them as messages of their own) are the documents of
      // a command that takes files (`/kb add`: images and scans are OCR'd); other commands leave them for the next question.
      const addsDocuments = takesFiles(admission.command.name, admission.command.words[0]);
      const withFiles = addsDocuments
        ? {
            ...message,
            attachments: [
              ...(await dependencies.recentAttachments.takeFor(message, 'file')),
              ...(await dependencies.recentAttachments.takeFor(message, 'image')),
            ],
          }
        : message;
      const result = await commands.run(admission.command, withFiles, { progress, download }, language);
      await final({ text: result.text, files: result.files ?? [] });
      return { admission, replies: sink.sent };
    }

    const turn = await answerQuestion(
      {
        message,
        choices,
        responder,
        replies,
        ...(late && lateness === 'late' ? { lateNote: lateNoteText(message.receivedAt, late) } : {}),
        final,
        notice,
        progress,
        download,
        turnDone: () => hooks?.turnDone(),
        logBase: base,
      },
      { ...dependencies, maxMessageChars: settings.maxMessageChars, imageLimits: settings.imageLimits },
    );
    return { admission, replies: sink.sent, ...(turn ? { turn } : {}) };
  };

  const observed = (handled: HandledMessage, message: InboundMessage) => {
    dependencies.observe?.(handled, message);
    return handled;
  };

  return {
    handle: async (message, responder) => {
      const choices = await choicesFor(message);
      const admission = admitted(message, choices);
      if (admission.kind === 'ignore') return observed(await ignored(message, admission), message);
      if (!(await dependencies.inbound.remember(message))) {
        log.info({ ...logBase(message) }, 'duplicate delivery ignored');
        return observed({ admission: { kind: 'ignore', reason: 'duplicate' }, replies: [] }, message);
      }
      return observed(await dependencies.queue.run(message.conversationKey, () => route(message, choices, responder, directReplies())), message);
    },
    process: async (message, responder, replies, hooks) => observed(await route(message, await choicesFor(message), responder, replies, hooks), message),
    setAside: async (message, responder, replies) => {
      // Earlier replies are not delivered again: their delivery may be what failed.
      const sink = new ReplySink(replies, responder);
      const { language } = await choicesFor(message);
      const notice = { text: say(setAsideNotice, language), files: [], replyTo: message.messageId };
      await sink.final(await dependencies.outbound.prepare(notice, message.conversationKey, language));
      return sink.sent;
    },
  };
}
