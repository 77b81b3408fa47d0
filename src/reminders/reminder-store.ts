import { z } from 'zod';
import type { Recurrence } from './when/when-types.js';
import { cutAtGrapheme } from '../shared/grapheme-cut.js';

// Reminders (/remind) in the shared store: DATA_DIR/state.db (sqlite-reminder-store.ts) or Redis with REDIS_URL
// (redis-reminder-store.ts), so they survive restarts. Each occurrence is delivered by one process: claimDue hands a
// due reminder out with a lease (a fresh token per claim), and every later write is fenced by that token — a claimer
// whose lease expired and was taken over can neither mark parts nor complete, so at most the part in flight repeats.

/** How a recurring reminder repeats (src/reminders/when/). */
export type ReminderRecurrence = Recurrence;

export interface NewReminder {
  /** e.g. 'telegram:-100123' */
  spaceKey: string;
  /** Who asked: 'telegram:42'. */
  userKey: string;
  /** Display name, cut to `reminderBounds.userNameChars`. */
  userName: string;
  /** What to remind of, cut to `reminderBounds.textChars`. */
  text: string;
  /** Epoch ms of the next occurrence. */
  dueAt: number;
  recurrence?: ReminderRecurrence;
  /** For recurring ones. */
  timeOfDay?: { hour: number; minute: number };
  timeZone: string;
  language: 'th' | 'en';
  /**
   * 'digest': a group's daily catch-up digest (/summary digest): its text is written when it is due
   * (ReminderDeliveryOptions.compose), `text` is only its name in /reminders. Absent: a reminder of `text`.
   */
  kind?: 'digest';
  /** Opaque JSON (the request message, so the adapter can answer in that chat), at most `reminderBounds.originBytes`. */
  origin: string;
  createdAt: number;
}

export interface Reminder extends NewReminder {
  id: string;
  /** Short per-space number for "/remind cancel 3": the smallest positive integer no other live reminder of the space has. */
  number: number;
  /** Parts of the current occurrence already sent. */
  sentParts: number[];
}

export interface ReminderLimits {
  perSpace: number;
  /** Per user in one space. */
  perUser: number;
}

export const defaultReminderLimits: ReminderLimits = { perSpace: 50, perUser: 10 };

/** What is stored at most; a store-wide `capacity` beyond which add answers 'space-full'. */
export const reminderBounds = {
  textChars: 500,
  userNameChars: 100,
  originBytes: 16 * 1024,
  keyChars: 200,
  timeZoneChars: 64,
  /** Part indexes of one occurrence (an answer is a few parts; a bound keeps the journal small). */
  parts: 1000,
  capacity: 10_000,
};

export type AddResult = { added: true; reminder: Reminder } | { added: false; reason: 'space-full' | 'user-full' };

export interface ClaimedReminder {
  reminder: Reminder;
  /** Token proving the claim. */
  lease: string;
}

export interface ReminderStore {
  /** Limit check and insert are atomic: two processes adding at once cannot exceed the limits. Throws on an input out of bounds (an origin too long). */
  add(input: NewReminder, limits: ReminderLimits): Promise<AddResult>;
  /** The space's reminders by dueAt (then number). */
  list(spaceKey: string): Promise<Reminder[]>;
  /** Removes it; undefined when there is none. A claim of it then loses its lease. */
  cancel(spaceKey: string, number: number): Promise<Reminder | undefined>;
  /** Claims up to `max` reminders with dueAt ≤ now whose lease is free or expired, for `leaseMs`; each one goes to one claimer only. */
  claimDue(now: number, leaseMs: number, max: number): Promise<ClaimedReminder[]>;
  /** Extends a claim; false when the lease is no longer this claim's (expired and taken, completed or cancelled). */
  renew(claim: ClaimedReminder, now: number, leaseMs: number): Promise<boolean>;
  /** A part of the occurrence was sent (the delivery journal: after a crash only the part in flight can repeat). false when the lease was lost. */
  markPartSent(claim: ClaimedReminder, part: number): Promise<boolean>;
  /**
   * The occurrence is delivered: without `nextDueAt` the reminder is deleted; with it, it moves there, its sentParts
   * cleared and lease freed. false when the lease was lost (nothing changed).
   */
  complete(claim: ClaimedReminder, nextDueAt?: number): Promise<boolean>;
  /**
   * When the scheduler should look next: the earliest time a reminder can be claimed — its dueAt, or while it is
   * claimed, its lease's expiry (so a claimed, overdue reminder does not wake the scheduler in a loop). undefined when none.
   */
  nextDueAt(): Promise<number | undefined>;
  /** The space got a new id (Telegram group → supergroup): its reminders move (numbers kept when free). Safe to repeat. */
  moveSpace(from: string, to: string): Promise<void>;
  /** All reminders, for /status and metrics. */
  count(): Promise<number>;
  /** The spaces holding a reminder, sorted, at most `limit` (the admin page's group list). */
  spaces(limit: number): Promise<string[]>;
}

const bounds = reminderBounds;
const epochMs = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const key = z.string().min(1).max(bounds.keyChars);
const recurrenceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('daily') }),
  z.object({ kind: z.literal('weekdays') }),
  z.object({ kind: z.literal('weekly'), weekday: z.number().int().min(0).max(6) }),
]);

/** The fields that never change after add: stored as one JSON text (the space, number, dueAt and lease change). */
const bodySchema = z.object({
  userKey: key,
  userName: z.string().max(bounds.userNameChars),
  text: z.string().max(bounds.textChars),
  recurrence: recurrenceSchema.optional(),
  timeOfDay: z.object({ hour: z.number().int().min(0).max(23), minute: z.number().int().min(0).max(59) }).optional(),
  timeZone: z.string().min(1).max(bounds.timeZoneChars),
  language: z.enum(['th', 'en']),
  kind: z.literal('digest').optional(),
  origin: z.string().refine((origin) => Buffer.byteLength(origin) <= bounds.originBytes, 'origin too long'),
  createdAt: epochMs,
});

const movingSchema = z.object({
  id: z.string().min(1).max(100),
  spaceKey: key,
  number: z.number().int().min(1),
  dueAt: epochMs,
  sentParts: z.array(z.number().int().min(0).max(bounds.parts)).max(bounds.parts + 1),
});

/**
 * `input` bounded for storing: text and name cut, every other field checked. Throws (an Error naming the field) on
 * what cannot be cut to fit — an origin over `originBytes` among them: the caller measures it first.
 */
export function boundedReminder(input: NewReminder): NewReminder {
  const cut = { ...input, userName: cutAtGrapheme(input.userName, bounds.userNameChars), text: cutAtGrapheme(input.text, bounds.textChars) };
  const body = bodySchema.safeParse(cut);
  const where = z.object({ spaceKey: key, dueAt: epochMs }).safeParse(cut);
  const problem = body.error ?? where.error;
  if (problem) throw new Error(`reminder refused: ${problem.issues.map((issue) => issue.path.join('.') || issue.message).join(', ')}`);
  return { ...body.data, spaceKey: cut.spaceKey, dueAt: cut.dueAt } as NewReminder;
}

/** The JSON text of the fields that never change (of a bounded reminder). */
export function reminderBody(input: NewReminder): string {
  const { spaceKey: _space, dueAt: _due, ...body } = input;
  return JSON.stringify(body);
}

/** What a backend read back, before validation. */
export interface StoredReminderRow {
  id: unknown;
  spaceKey: unknown;
  number: unknown;
  dueAt: unknown;
  body: unknown;
  sentParts: unknown;
}

/** A stored row read back as a Reminder, or undefined when any of it is malformed (stored data is input too). */
export function readReminder(row: StoredReminderRow): Reminder | undefined {
  let parsedBody: unknown;
  try {
    parsedBody = typeof row.body === 'string' ? JSON.parse(row.body) : undefined;
  } catch {
    return undefined;
  }
  const body = bodySchema.safeParse(parsedBody);
  const moving = movingSchema.safeParse({ ...row, number: numeric(row.number), dueAt: numeric(row.dueAt), sentParts: readParts(row.sentParts) });
  if (!body.success || !moving.success) return undefined;
  return { ...body.data, ...moving.data } as Reminder;
}

/** Sent parts are stored as '1,2,5' by both backends (Lua appends to it without a JSON library). */
function readParts(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  return value === '' ? [] : value.split(',').map(numeric);
}

/** A stored number (Redis answers strings); '' or a blank is not 0. */
function numeric(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}

/** Checks a part index before it is stored. */
export function checkedPart(part: number): string {
  if (!Number.isInteger(part) || part < 0 || part > bounds.parts) throw new Error(`reminder part out of range: ${part}`);
  return String(part);
}

/** The smallest positive integer not in `taken`. */
export function smallestFreeNumber(taken: Iterable<number>): number {
  const used = new Set(taken);
  let number = 1;
  while (used.has(number)) number++;
  return number;
}

/** Checks the limits: a NaN one would compare as never reached. */
export function checkedLimits(limits: ReminderLimits): ReminderLimits {
  const count = z.number().int().min(0).max(bounds.capacity);
  return { perSpace: count.parse(limits.perSpace), perUser: count.parse(limits.perUser) };
}

/** Checks a claim's arguments: a NaN or negative lease would store one that never ends, or has already ended. */
export function checkedClaim(now: number, leaseMs: number, max: number): void {
  checkedTime(now);
  if (!Number.isSafeInteger(leaseMs) || leaseMs <= 0 || !Number.isSafeInteger(max) || max < 0) {
    throw new Error('reminder claim: leaseMs must be a positive integer and max a non-negative one');
  }
}

/** An epoch-ms time before it is stored or compared with. */
export function checkedTime(time: number): void {
  if (!Number.isSafeInteger(time) || time < 0) throw new Error(`reminder time out of range: ${time}`);
}
