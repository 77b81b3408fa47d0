// One message of a group's catch-up log (docs/architecture.md, "Catch-up"): kept only in spaces whose admin turned
// /summary on, for the retention the space chose, DLP-scanned before it is written. Shared by the log store
// (group-log-store.ts) and the summarizer (agent/catchup/, which declares the same shape as LogEntry).

export interface GroupLogEntry {
  /** The space it was said in, e.g. 'telegram:-100123'. */
  spaceKey: string;
  /** The platform's message id: a redelivered message is logged once. */
  messageId: string;
  /** Epoch ms when it was said (the platform's time). */
  at: number;
  /** Who said it: 'telegram:42'. */
  speakerKey: string;
  /** Their display name, cut to `groupLogBounds.speakerChars`. */
  speaker: string;
  /** Text, caption and the text read from its images, cut to `groupLogBounds.textChars`. */
  text: string;
  /** A link to the message where the platform has them (Telegram supergroups, Discord). */
  link?: string;
}

/** What one entry may hold at most, and how much a space keeps whatever its retention. */
export const groupLogBounds = {
  keyChars: 200,
  messageIdChars: 200,
  speakerChars: 64,
  textChars: 1_000,
  linkChars: 300,
  /** Entries per space: the oldest go first past it (a busy group's week is a few thousand). */
  perSpace: 20_000,
};
