// Shared types: the only vocabulary that adapters/, agent/ and src/ have in common.

import type { ModelFigures } from './model-figures.js';

export type Platform = 'console' | 'discord' | 'telegram' | 'line';
export type ChatKind = 'direct' | 'group';
export type Language = 'th' | 'en';

export interface Sender {
  id: string;
  name: string;
  /** The platform's own admin flag (Discord ManageGuild, Telegram chat administrator…). */
  isPlatformAdmin: boolean;
}

/**
 * Where an attachment's bytes are, as plain data (a stored message must be replayable after a restart); the adapter
 * that received the message turns it into bytes (`PlatformAdapter.download`).
 */
export type AttachmentReference =
  /** Telegram `file_id` (resolved through getFile). */
  | { kind: 'platform-file'; id: string }
  /** Discord attachment CDN URL. */
  | { kind: 'url'; url: string }
  /** LINE message id: its content is fetched by message. */
  | { kind: 'message'; id: string }
  /** Console: a file on this machine. */
  | { kind: 'path'; path: string };

export interface Attachment {
  kind: 'image' | 'file';
  mime: string;
  name: string;
  /** As declared by the platform (the download enforces the real cap). */
  size: number;
  reference: AttachmentReference;
}

export interface InboundMessage {
  platform: Platform;
  /** `platform:chat[:thread]` — one history, one queue. */
  conversationKey: string;
  /** `platform:space` — Discord guild, Telegram chat, LINE group/room/user; owns knowledge bases. */
  spaceKey: string;
  messageId: string;
  chatKind: ChatKind;
  sender: Sender;
  /** Text with the bot mention stripped. */
  text: string;
  mentionsBot: boolean;
  repliesToBot: boolean;
  attachments: Attachment[];
  /** Survives JSON through `parseInboundMessage` (src/shared/inbound-message-schema.ts). */
  receivedAt: Date;
  /**
   * A short-lived credential the answer goes through (a Discord interaction token, a LINE reply token), with when
   * it stops working; after that the adapter posts to the chat instead. A credential: never logged.
   */
  replyToken?: ReplyToken;
  /**
   * The message this one replies to (quotes), as the platform told it: its text and readable attachments go into the
   * turn as quoted material, apart from the question (docs/architecture.md, "Quoted messages"). `unknown`: the
   * platform named a message the bot cannot see (LINE gives only an id, and it was not in the store).
   */
  quoted?: QuotedMessage;
  /**
   * What the message carried that Saeng cannot read (a voice note, a sticker…), when it carried nothing readable
   * besides a caption: addressed to the bot, it is told what Saeng can read instead of silence.
   */
  unreadable?: UnreadableKind;
}

export type UnreadableKind = 'voice' | 'audio' | 'video' | 'sticker';

export type QuotedMessage =
  | {
      state: 'known';
      /** The quoted message's author as the chat shows them; `byBot`: one of the bot's own answers. */
      author: string;
      byBot: boolean;
      /** Its text or caption, cut to `maxQuotedChars` by the adapter. */
      text: string;
      /** Its images and documents, read through the same paths as the question's own. */
      attachments: Attachment[];
      sentAt?: Date;
    }
  | { state: 'unknown' };

/** How much of a quoted message's text an adapter keeps. */
export const maxQuotedChars = 4_000;

export interface ReplyToken {
  value: string;
  expiresAt: Date;
  /** LINE: the token that quotes the user's message in the answer's first bubble (groups). */
  quoteToken?: string;
}

export interface OutboundFile {
  name: string;
  /** Absolute path on disk (inside the conversation's sandbox). */
  path: string;
  mime: string;
  size: number;
  /** A signed, expiring download link (with PUBLIC_BASE_URL), for platforms that cannot send files. */
  link?: { url: string; expiresAt: string };
}

export interface Reply {
  /** Standard Markdown; adapters render it per platform. */
  text: string;
  files: OutboundFile[];
  replyTo?: string;
}

/** Where a fact came from: a web page (url) or a knowledge-base document (label only). */
export interface Citation {
  label: string;
  url?: string;
}

/** `retry`: the turn asked the model once more (the language guard). */
export type GuardAction = 'pass' | 'warn' | 'retry' | 'rewrite' | 'block';

/** Every guard that records events; a misspelt name fails the type check. */
export type GuardName =
  | 'write-claim'
  | 'refusal'
  | 'numbers'
  | 'sources'
  | 'vision'
  | 'dlp'
  | 'repetition'
  | 'leaked-markup'
  | 'repeat-call'
  | 'language'
  | 'output-limit'
  | 'stream';

export interface GuardEvent {
  guard: GuardName;
  action: GuardAction;
  reason: string;
}

export interface ModelCapabilities {
  tools: boolean;
  vision: boolean;
}

export type RagMode = 'agentic' | 'naive' | 'none';

export interface TurnImage {
  name: string;
  mime: string;
  bytes: Uint8Array;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  /** Parsed arguments (undefined when they did not parse). */
  args: unknown;
  /** Arguments exactly as the model sent them. */
  argumentsText: string;
  /** What the model was given back. */
  result: string;
  ok: boolean;
  ms: number;
  citations: Citation[];
  files: OutboundFile[];
}

/** `cancelled`: the user stopped the turn (its platform's cancel); nothing of it is kept in the history. */
export type StopReason = 'answer' | 'step-limit' | 'repetition' | 'leaked-markup' | 'repeat-call' | 'model-error' | 'cancelled' | 'output-limit';

/** Everything one turn did; guards are pure functions over it. */
export interface TurnRecord {
  conversationKey: string;
  language: Language;
  /** The user's question as sent to the model (mention stripped). */
  question: string;
  /** The date/time line placed in the newest user message. */
  dateLine: string;
  /** Retrieved text placed in the user message by code (naive RAG): it backs figures like a tool result. */
  contextPassages: string[];
  /** This conversation's earlier questions and answers as re-sent: their figures were checked in their own turn. */
  earlierTurns: string[];
  images: TurnImage[];
  toolCalls: ToolCallRecord[];
  /** Earlier model texts that were replaced (retries, cut streams). */
  drafts: string[];
  finalText: string;
  citations: Citation[];
  files: OutboundFile[];
  guardEvents: GuardEvent[];
  stopReason: StopReason;
  rag: RagMode;
  capabilities: ModelCapabilities;
  steps: number;
  modelMs: number;
  /** The model server's own figures, summed over the turn's calls (tokens, cache reuse, its milliseconds). */
  modelFigures: ModelFigures;
  /** Images whose text was read (OCR) in this turn, up front or by read_image; absent when none was attempted. */
  imagesRead?: number;
  totalMs: number;
}

/** Something a long-running tool wants the user to see while it works (already localized). */
export interface ProgressEvent {
  source: string;
  text: string;
}

/** The step a running turn has just started: a model call, or one of its tools (by tool name). */
export type TurnStep = { kind: 'model' } | { kind: 'tool'; tool: string };
