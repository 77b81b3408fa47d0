import { keysUnder } from '../redis/keys-under.js';
import type { RedisClient } from '../redis/redis-client.js';
import type { GroupLogEntry } from './group-log-entry.js';
import {
  boundedEntry,
  checkedKey,
  checkedPerSpace,
  checkedRange,
  checkedTime,
  entryBody,
  readGroupLogEntry,
  storedTime,
  type GroupLogRange,
  type GroupLogStore,
  type GroupLogStoreOptions,
} from './group-log-store.js';
import * as scripts from './redis-group-log-scripts.js';

// The catch-up log shared by every bot process (REDIS_URL), under `<prefix>catchup:` (the layout:
// redis-group-log-scripts.ts). Each step that reads and then writes is one Lua script; durability is Redis's
// (appendonly yes, as for the inbound queue).

export interface RedisGroupLogStoreOptions extends GroupLogStoreOptions {
  client: RedisClient;
  /** The storage's prefix (`saeng:`); the log lives under `<keyPrefix>catchup:`. */
  keyPrefix: string;
}

/** A time as the speaker index orders it: 16 digits hold every epoch-ms time up to Number.MAX_SAFE_INTEGER. */
const timeDigits = 16;
const indexTime = (time: number) => String(time).padStart(timeDigits, '0');

export class RedisGroupLogStore implements GroupLogStore {
  private readonly client: RedisClient;
  private readonly prefix: string;
  private readonly perSpace: number;

  constructor(options: RedisGroupLogStoreOptions) {
    this.client = options.client;
    this.prefix = `${options.keyPrefix}catchup:`;
    this.perSpace = checkedPerSpace(options);
  }

  async append(input: GroupLogEntry): Promise<boolean> {
    const entry = boundedEntry(input);
    const member = `${entry.speakerKey}\0${indexTime(entry.at)}\0${entry.messageId}`;
    const args = [this.prefix, entry.spaceKey, entry.messageId, entry.at, entryBody(entry), member, this.perSpace];
    return (await scripts.appendScript.run(this.client, args)) === 1;
  }

  async read(spaceKey: string, range: GroupLogRange): Promise<GroupLogEntry[]> {
    const { from, to, limit } = checkedRange(range);
    if (limit === 0 || from >= to) return [];
    const reply = await scripts.readScript.run(this.client, [this.prefix, spaceKey, from, to, limit]);
    const rows = Array.isArray(reply) ? reply.filter((row): row is unknown[] => Array.isArray(row)) : [];
    return rows.reverse().flatMap(([messageId, at, body]) => readGroupLogEntry({ spaceKey, messageId, at, body }) ?? []);
  }

  async lastSaidBy(spaceKey: string, speakerKey: string, before: number): Promise<number | undefined> {
    checkedKey(speakerKey, 'speaker key');
    const member = await scripts.lastSaidScript.run(this.client, [this.prefix, spaceKey, speakerKey, indexTime(checkedTime(before))]);
    const start = speakerKey.length + 1;
    if (typeof member !== 'string' || !member.startsWith(`${speakerKey}\0`)) return undefined;
    return storedTime(member.slice(start, start + timeDigits));
  }

  async prune(spaceKey: string, before: number): Promise<number> {
    return Number(await scripts.pruneScript.run(this.client, [this.prefix, spaceKey, checkedTime(before)]));
  }

  async deleteSpace(spaceKey: string): Promise<number> {
    return Number(await scripts.deleteSpaceScript.run(this.client, [this.prefix, spaceKey]));
  }

  /** By the names of the spaces' time indexes (`catchup:t:<space>`), which exist while a space keeps an entry. */
  async spaces(limit: number): Promise<string[]> {
    return keysUnder(this.client, `${this.prefix}t:`, limit);
  }

  async count(spaceKey: string): Promise<number> {
    return this.client.zCard(`${this.prefix}t:${spaceKey}`);
  }

  async oldest(spaceKey: string): Promise<number | undefined> {
    const [first] = await this.client.zRangeWithScores(`${this.prefix}t:${spaceKey}`, 0, 0);
    return storedTime(first?.score);
  }

  async moveSpace(from: string, to: string): Promise<void> {
    if (from === to) return;
    await scripts.moveScript.run(this.client, [this.prefix, from, checkedKey(to, 'space key'), this.perSpace]);
  }
}
