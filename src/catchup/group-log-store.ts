import { z } from 'zod';
import { cutAtGrapheme } from '../shared/grapheme-cut.js';
import { groupLogBounds, type GroupLogEntry } from './group-log-entry.js';

// The catch-up log (docs/architecture.md, "Catch-up") in the shared store: DATA_DIR/state.db
// (sqlite-group-log-store.ts) or Redis with REDIS_URL (redis-group-log-store.ts), so /summary still has the week after a
// restart. What is read back is checked again here: stored data is input too (another version, a hand edit, a bug).

/** Which entries `read` returns: from ≤ at < to (epoch ms), at most `limit` of them. */
export interface GroupLogRange {
  from: number;
  to: number;
  limit: number;
}

export interface GroupLogStore {
  /**
   * Logs one message, its fields cut to `groupLogBounds` (a key or message id over its bound, or a time that is not
   * an epoch-ms integer, throws: the caller's mistake). false when it was logged before (a redelivery) or when the space
   * is full and it is older than all it keeps. Past `groupLogBounds.perSpace` the oldest go, atomically: two processes
   * appending at once never pass the bound nor lose an entry.
   */
  append(entry: GroupLogEntry): Promise<boolean>;
  /** Oldest first; the newest `limit` when the range holds more (a catch-up wants the latest). Unreadable rows are skipped. */
  read(spaceKey: string, range: GroupLogRange): Promise<GroupLogEntry[]>;
  /** When `speakerKey` last said something before `before` ("since my last message"); undefined when never (kept). */
  lastSaidBy(spaceKey: string, speakerKey: string, before: number): Promise<number | undefined>;
  /** Deletes the space's entries said before `before` (its retention); how many went. */
  prune(spaceKey: string, before: number): Promise<number>;
  /** Deletes all of the space's log (the log was turned off); how many went. */
  deleteSpace(spaceKey: string): Promise<number>;
  count(spaceKey: string): Promise<number>;
  /** When the oldest kept entry was said; undefined when none. */
  oldest(spaceKey: string): Promise<number | undefined>;
  /**
   * The space got a new id (Telegram group → supergroup): its entries move. One the new space already has under the
   * same message id is newer and wins; the bound is kept. Safe to repeat.
   */
  moveSpace(from: string, to: string): Promise<void>;
  /** The spaces with a kept entry, sorted, at most `limit` (the admin page's group list). */
  spaces(limit: number): Promise<string[]>;
}

export interface GroupLogStoreOptions {
  /** Entries kept per space (default `groupLogBounds.perSpace`); tests use a small one. */
  perSpace?: number;
}

const bounds = groupLogBounds;
const epochMs = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
// No NUL: the Redis store joins keys with it (its speaker index); platform keys never hold one.
const keyOf = (chars: number) =>
  z
    .string()
    .min(1)
    .max(chars)
    .refine((key) => !key.includes('\0'), 'holds a NUL');
const keySchema = keyOf(bounds.keyChars);
const messageIdSchema = keyOf(bounds.messageIdChars);

/** What is stored as one JSON text (the space, message id and time are the store's keys and order). */
const bodySchema = z.object({
  speakerKey: keyOf(bounds.keyChars),
  speaker: z.string().max(bounds.speakerChars),
  text: z.string().max(bounds.textChars),
  link: z.string().max(bounds.linkChars).optional(),
});

/** Checks a key before it is stored or looked up; throws on one that no entry could have. */
export function checkedKey(key: string, what = 'key'): string {
  if (!keySchema.safeParse(key).success) throw new Error(`group log ${what} refused: empty, over ${bounds.keyChars} characters or holding a NUL`);
  return key;
}

/** An epoch-ms time before it is stored or compared with (a NaN would match nothing, or everything). */
export function checkedTime(time: number): number {
  if (!epochMs.safeParse(time).success) throw new Error(`group log time out of range: ${time}`);
  return time;
}

export function checkedRange(range: GroupLogRange): GroupLogRange {
  checkedTime(range.from);
  checkedTime(range.to);
  if (!Number.isSafeInteger(range.limit) || range.limit < 0) throw new Error(`group log limit out of range: ${range.limit}`);
  return range;
}

/** The per-space bound of the options, checked (a NaN one would compare as never reached). */
export function checkedPerSpace(options: GroupLogStoreOptions): number {
  return z
    .number()
    .int()
    .min(1)
    .max(bounds.perSpace * 10)
    .parse(options.perSpace ?? bounds.perSpace);
}

/**
 * `entry` bounded for storing: name and text cut between graphemes, a link over its bound dropped (a cut link leads
 * nowhere). Throws on keys, message id or time out of bounds.
 */
export function boundedEntry(entry: GroupLogEntry): GroupLogEntry {
  checkedKey(entry.spaceKey, 'space key');
  checkedKey(entry.speakerKey, 'speaker key');
  if (!messageIdSchema.safeParse(entry.messageId).success)
    throw new Error(`group log message id refused: empty, over ${bounds.messageIdChars} characters or holding a NUL`);
  checkedTime(entry.at);
  const bounded: GroupLogEntry = {
    spaceKey: entry.spaceKey,
    messageId: entry.messageId,
    at: entry.at,
    speakerKey: entry.speakerKey,
    speaker: cutAtGrapheme(entry.speaker, bounds.speakerChars),
    text: cutAtGrapheme(entry.text, bounds.textChars),
  };
  if (entry.link !== undefined && entry.link.length <= bounds.linkChars) bounded.link = entry.link;
  return bounded;
}

/** The JSON text stored for a bounded entry. */
export function entryBody(entry: GroupLogEntry): string {
  const { speakerKey, speaker, text, link } = entry;
  return JSON.stringify(link === undefined ? { speakerKey, speaker, text } : { speakerKey, speaker, text, link });
}

/** What a backend read back, before validation. */
export interface StoredGroupLogRow {
  spaceKey: string;
  messageId: unknown;
  at: unknown;
  body: unknown;
}

/** A stored row read back as an entry, or undefined when any of it is malformed. */
export function readGroupLogEntry(row: StoredGroupLogRow): GroupLogEntry | undefined {
  let parsed: unknown;
  try {
    parsed = typeof row.body === 'string' ? JSON.parse(row.body) : undefined;
  } catch {
    return undefined;
  }
  const body = bodySchema.safeParse(parsed);
  const messageId = messageIdSchema.safeParse(row.messageId);
  const at = epochMs.safeParse(storedNumber(row.at));
  if (!body.success || !messageId.success || !at.success) return undefined;
  const { speakerKey, speaker, text, link } = body.data;
  const entry: GroupLogEntry = { spaceKey: row.spaceKey, messageId: messageId.data, at: at.data, speakerKey, speaker, text };
  if (link !== undefined) entry.link = link;
  return entry;
}

/** A stored time (Redis answers strings), or undefined when it is not an epoch-ms integer. */
export function storedTime(value: unknown): number | undefined {
  return epochMs.safeParse(storedNumber(value)).data;
}

/** A stored number; '' or a blank is not 0. */
function storedNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}
