import { keysUnder } from '../redis/keys-under.js';
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/redis-client.js';
import {
  boundedReminder,
  checkedClaim,
  checkedLimits,
  checkedPart,
  checkedTime,
  readReminder,
  reminderBody,
  reminderBounds,
  type AddResult,
  type ClaimedReminder,
  type NewReminder,
  type Reminder,
  type ReminderLimits,
  type ReminderStore,
} from './reminder-store.js';
import * as scripts from './redis-reminder-scripts.js';

// Reminders shared by every bot process (REDIS_URL), under `<prefix>reminders:` (the layout: redis-reminder-scripts.ts).
// Every step that reads and then writes is one Lua script, so two processes adding at once cannot pass a limit and a
// due reminder is handed to one claimer only. Durability is Redis's (appendonly yes, as for the inbound queue).

export interface RedisReminderStoreOptions {
  client: RedisClient;
  /** The storage's prefix (`saeng:`); the reminders live under `<keyPrefix>reminders:`. */
  keyPrefix: string;
  /** Reminders kept in all (default `reminderBounds.capacity`); add answers 'space-full' beyond it. */
  capacity?: number;
}

/** The fields each script returns per reminder: id, space, number, due, body, sent. */
const rowWidth = 6;

export class RedisReminderStore implements ReminderStore {
  private readonly client: RedisClient;
  private readonly prefix: string;
  private readonly capacity: number;

  constructor(options: RedisReminderStoreOptions) {
    this.client = options.client;
    this.prefix = `${options.keyPrefix}reminders:`;
    this.capacity = options.capacity ?? reminderBounds.capacity;
  }

  async add(input: NewReminder, limits: ReminderLimits): Promise<AddResult> {
    const reminder = boundedReminder(input);
    const { perSpace, perUser } = checkedLimits(limits);
    const id = randomUUID();
    const number = await scripts.addScript.run(this.client, [
      this.prefix,
      id,
      reminder.spaceKey,
      reminder.userKey,
      reminder.dueAt,
      reminderBody(reminder),
      perSpace,
      perUser,
      this.capacity,
    ]);
    if (number === -2) return { added: false, reason: 'user-full' };
    if (typeof number !== 'number' || number < 1) return { added: false, reason: 'space-full' };
    return { added: true, reminder: { ...reminder, id, number, sentParts: [] } };
  }

  /** By the names of the spaces' number indexes (`reminders:s:<space>`), which exist while a space has a reminder. */
  async spaces(limit: number): Promise<string[]> {
    return keysUnder(this.client, `${this.prefix}s:`, limit);
  }

  async list(spaceKey: string): Promise<Reminder[]> {
    const reply = await scripts.listScript.run(this.client, [this.prefix, spaceKey]);
    const reminders = rowsOf(reply, rowWidth).flatMap((row) => readRow(row) ?? []);
    return reminders.sort((a, b) => a.dueAt - b.dueAt || a.number - b.number);
  }

  async cancel(spaceKey: string, number: number): Promise<Reminder | undefined> {
    const reply = await scripts.cancelScript.run(this.client, [this.prefix, spaceKey, number]);
    const [row] = rowsOf(reply, rowWidth);
    return row && readRow(row);
  }

  async claimDue(now: number, leaseMs: number, max: number): Promise<ClaimedReminder[]> {
    checkedClaim(now, leaseMs, max);
    const claims: ClaimedReminder[] = [];
    while (claims.length < max) {
      const reply = await scripts.claimScript.run(this.client, [this.prefix, now, now + leaseMs, max - claims.length, randomUUID()]);
      const rows = rowsOf(reply, rowWidth + 1);
      let dropped = 0;
      for (const row of rows) {
        const lease = String(row[rowWidth]);
        const reminder = readRow(row);
        if (reminder) {
          claims.push({ reminder, lease });
          continue;
        }
        // A reminder this version cannot read would be claimed again at every lease's end: it is dropped.
        await scripts.completeScript.run(this.client, [this.prefix, String(row[0]), lease, '']);
        dropped++;
      }
      // Claimed ones are ready only after the lease (leaseMs > 0): the next read finds only others.
      if (dropped === 0) break;
    }
    return claims;
  }

  async renew(claim: ClaimedReminder, now: number, leaseMs: number): Promise<boolean> {
    checkedClaim(now, leaseMs, 0);
    return (await scripts.renewScript.run(this.client, [this.prefix, claim.reminder.id, claim.lease, now + leaseMs])) === 1;
  }

  async markPartSent(claim: ClaimedReminder, part: number): Promise<boolean> {
    return (await scripts.markPartScript.run(this.client, [this.prefix, claim.reminder.id, claim.lease, checkedPart(part)])) === 1;
  }

  async complete(claim: ClaimedReminder, nextDueAt?: number): Promise<boolean> {
    if (nextDueAt !== undefined) checkedTime(nextDueAt);
    return (await scripts.completeScript.run(this.client, [this.prefix, claim.reminder.id, claim.lease, nextDueAt ?? ''])) === 1;
  }

  async nextDueAt(): Promise<number | undefined> {
    const [first] = await this.client.zRangeWithScores(`${this.prefix}due`, 0, 0);
    return first?.score;
  }

  async moveSpace(from: string, to: string): Promise<void> {
    if (from !== to) await scripts.moveScript.run(this.client, [this.prefix, from, to]);
  }

  async count(): Promise<number> {
    return this.client.zCard(`${this.prefix}due`);
  }
}

/** A script's flat reply in rows of `width` (a reply of another shape reads as none). */
function rowsOf(reply: unknown, width: number): unknown[][] {
  if (!Array.isArray(reply)) return [];
  const rows: unknown[][] = [];
  for (let start = 0; start + width <= reply.length; start += width) rows.push(reply.slice(start, start + width));
  return rows;
}

function readRow([id, spaceKey, number, dueAt, body, sentParts]: unknown[]): Reminder | undefined {
  return readReminder({ id, spaceKey, number, dueAt, body, sentParts });
}
