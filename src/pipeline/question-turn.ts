import { say, type Localized } from '../shared/i18n.js';
import type { Logger } from '../shared/log.js';
import type { Responder } from '../shared/channel.js';
import type { TurnOutcome, TurnRunner } from '../shared/turn-runner.js';
import type { Attachment, InboundMessage, ProgressEvent, Reply, TurnRecord, TurnStep } from '../shared/types.js';
import type { ImageLimits } from '../images/inspect-image.js';
import type { GroupContext } from './group-context.js';
import { startTurnLive } from './live-answer.js';
import { loadImages } from './load-images.js';
import type { Outbound } from './outbound.js';
import { quotedContextOf } from './quoted-context.js';
import type { RecentAttachments } from './recent-attachments.js';
import type { MessageReplies } from './reply-journal.js';
import type { SpaceChoices } from './space-choices.js';

// A question's turn, once the router admitted it and took the quota (docs/architecture.md, "Data flow of one
// message", step 6): what goes with the question (its quote, remembered images, the group's chatter), the agent's
// turn with the space's choices, and the answer with code's notes in front.

export interface QuestionDependencies {
  agent: TurnRunner;
  outbound: Outbound;
  recentAttachments: Pick<RecentAttachments, 'takeFor'>;
  groupContext: Pick<GroupContext, 'contextFor'>;
  /** A quoted document's text from its bytes (quoted-context.ts); absent: quoted documents are only named. */
  readDocument?: (bytes: Uint8Array, attachment: Attachment) => Promise<string | undefined>;
  maxMessageChars: number;
  imageLimits: ImageLimits;
  log: Logger;
}

export interface Question {
  message: InboundMessage;
  choices: SpaceChoices;
  responder: Responder;
  replies: Pick<MessageReplies, 'live'>;
  /** The late note, when the question waited past MAX_MESSAGE_AGE_MS (late-answer.ts). */
  lateNote?: string;
  final(reply: Reply): Promise<void>;
  notice(reply: Reply): Promise<void>;
  progress(event: ProgressEvent): void;
  download(attachment: Attachment): Promise<Uint8Array>;
  /** The model's part is over: the worker frees the turn slot before the answer is sent. */
  turnDone(): void;
  logBase: Record<string, string>;
}

/** The question of an image sent with no words ("@bot" after a photo, a photo alone in a direct chat). */
const imageOnlyQuestion: Localized = { th: 'ช่วยอ่านและอธิบายรูปนี้ให้หน่อย', en: 'Please read and describe this image.' };
/** A mention alone in reply to a message: the quoted message is the question. */
const quotedOnlyQuestion: Localized = { th: 'ช่วยอธิบายข้อความที่อ้างถึงนี้ให้หน่อย', en: 'Please explain the quoted message.' };
const emptyMentionHint: Localized = {
  th: 'เรียกแสงแล้วพิมพ์คำถามต่อท้ายได้เลยครับ หรือส่งรูปแล้วเรียกบอทเพื่อให้ช่วยอ่าน (ดูคำสั่งทั้งหมดด้วย /help)',
  en: 'Mention me followed by your question, or send an image and then mention me to have it read (/help lists the commands).',
};
const tooLongNotice: Localized = {
  th: 'ข้อความยาวเกินไป ({length} ตัวอักษร รับได้สูงสุด {limit}) กรุณาย่อให้สั้นลง หรือส่งเป็นไฟล์แนบ',
  en: 'That message is too long ({length} characters, at most {limit}). Please shorten it or send it as a file.',
};

/** Runs the question's turn and stores its answer; the turn's record, or undefined when no turn ran. */
export async function answerQuestion(question: Question, dependencies: QuestionDependencies): Promise<TurnRecord | undefined> {
  const { message, choices, responder, final, download } = question;
  const { language } = choices;
  const { log } = dependencies;
  const base = question.logBase;
  if (message.text.length > dependencies.maxMessageChars) {
    await final({ text: say(tooLongNotice, language, { length: message.text.length, limit: dependencies.maxMessageChars }), files: [] });
    return undefined;
  }
  const { readDocument } = dependencies;
  const documentText = readDocument && (async (attachment: Attachment) => readDocument(await download(attachment), attachment));
  // A space that turned quotes off: the question is answered as if it quoted nothing.
  const quoted = choices.quotes
    ? await quotedContextOf(message, { language, ...(documentText ? { documentText } : {}) })
    : { images: [], block: undefined, lead: undefined };
  const attachments = [...(await dependencies.recentAttachments.takeFor(message, 'image')), ...quoted.images];
  const groupChatter =
    message.chatKind === 'group'
      ? await dependencies.groupContext.contextFor(message, { language, ...(choices.groupContext === undefined ? {} : { limit: choices.groupContext }) })
      : undefined;
  // The quoted message first: it is what the question is about.
  const chatContext = [quoted.block, groupChatter].filter((part) => part !== undefined && part !== '').join('\n\n') || undefined;
  const images = await loadImages(attachments, { download, limits: dependencies.imageLimits, language, send: question.notice });
  const wordless = message.text.trim() === '';
  // Code's notes in front of the answer (and of its live preview): late, a quote the bot cannot see.
  const leads = [question.lateNote, quoted.lead].filter((lead) => lead !== undefined);
  const withLead = (text: string) => [...leads, text].join('\n\n');
  if (wordless && images.length === 0 && !quoted.block) {
    // Nothing to ask the model: say how to ask instead of answering an empty question.
    if (attachments.length === 0) await final({ text: say(emptyMentionHint, language), files: [] });
    return undefined;
  }
  // One controller per turn: the responder's cancel (the console's Ctrl-C) aborts this turn only.
  const cancel = new AbortController();
  const stopWorking = responder.working?.({ cancel: () => cancel.abort() });
  const live =
    choices.streaming && responder.live
      ? startTurnLive({ responder, start: question.replies.live, allows: await dependencies.outbound.liveCheck(message.conversationKey), log, logBase: base })
      : undefined;
  const onStep = (step: TurnStep) => {
    live?.step(step);
    try {
      responder.step?.(step);
    } catch (error) {
      log.warn({ ...base, error: String(error) }, 'step note failed');
    }
  };
  let outcome: TurnOutcome;
  try {
    outcome = await dependencies.agent.runTurn({
      conversationKey: message.conversationKey,
      spaceKey: message.spaceKey,
      question: wordless ? say(quoted.block ? quotedOnlyQuestion : imageOnlyQuestion, language) : message.text,
      speakerName: message.chatKind === 'group' ? message.sender.name : undefined,
      images,
      chatContext,
      language,
      ...(choices.languageFixed ? { languageFixed: true } : {}),
      ...(choices.instructions ? { spaceInstructions: choices.instructions } : {}),
      turnId: `${message.platform}:${message.messageId}`,
      signal: cancel.signal,
      progress: question.progress,
      onStep,
      ...(live ? { onPreview: (text: string) => live.preview(withLead(text)) } : {}),
    });
  } finally {
    stopWorking?.();
    // The live message is settled before the final reply goes into it (or replaces it, after a failure).
    await live?.end();
  }
  question.turnDone();
  await final({ ...outcome.reply, text: withLead(outcome.reply.text) });
  return outcome.record;
}
