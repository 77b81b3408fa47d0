import { expect, it } from 'vitest';
import { groupLogBounds, type GroupLogEntry } from '../../src/catchup/group-log-entry.js';
import type { GroupLogStore } from '../../src/catchup/group-log-store.js';
import { cutAtGrapheme } from '../../src/shared/grapheme-cut.js';

// What every catch-up log store keeps (test/src/catchup/sqlite-group-log-store.test.ts on SQLite,
// redis-group-log-store.test.ts on Redis). Times are passed in: nothing waits.

/** A stored field of one entry, as a backend keeps it. */
export type StoredField = 'body' | 'at';

export interface GroupLogStoreHarness {
  /** A store over fresh, empty storage. */
  store: GroupLogStore;
  /** Another store object over the same storage (on Redis over another connection): a second bot process. */
  other: GroupLogStore;
  /** Two store objects (two processes) over the same storage keeping at most `perSpace` entries a space. */
  bounded(perSpace: number): [GroupLogStore, GroupLogStore];
  /** The storage closed and opened again (SQLite: the file; Redis: a new client): a store over what was kept. */
  reopen(): Promise<GroupLogStore>;
  /** Overwrites one stored field of an entry as written, unchecked (stored data is untrusted). */
  corrupt(spaceKey: string, messageId: string, field: StoredField, value: string | number): Promise<void>;
}

export const t0 = Date.UTC(2026, 2, 5, 2, 0);
const minute = 60_000;
const group = 'telegram:-100123';
const everything = { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 1000 };

export const logEntry = (messageId: string | number, at: number, more: Partial<GroupLogEntry> = {}): GroupLogEntry => ({
  spaceKey: group,
  messageId: String(messageId),
  at,
  speakerKey: 'telegram:42',
  speaker: 'สมชาย',
  text: `ข้อความที่ ${messageId}`,
  ...more,
});

const idsOf = (entries: readonly GroupLogEntry[]) => entries.map((entry) => entry.messageId);

async function appendAll(store: GroupLogStore, entries: readonly GroupLogEntry[]): Promise<void> {
  for (const entry of entries) expect(await store.append(entry)).toBe(true);
}

/** The contract both backends keep; `make()` opens fresh, empty storage. */
export function groupLogStoreContract(make: () => Promise<GroupLogStoreHarness>): void {
  it('reads a range oldest first (at, then message id), from ≤ at < to, entries as appended', async () => {
    const { store } = await make();
    const linked = logEntry(3, t0 + minute, { link: 'https://t.me/c/123/3', speaker: 'Ann 🙂' });
    await appendAll(store, [logEntry(4, t0 + 2 * minute), linked, logEntry(1, t0), logEntry(2, t0 + minute), logEntry(5, t0 + 3 * minute)]);
    expect(await store.read(group, everything)).toEqual([
      logEntry(1, t0),
      logEntry(2, t0 + minute),
      linked,
      logEntry(4, t0 + 2 * minute),
      logEntry(5, t0 + 3 * minute),
    ]);
    expect(idsOf(await store.read(group, { from: t0 + minute, to: t0 + 3 * minute, limit: 10 }))).toEqual(['2', '3', '4']);
    expect(await store.read(group, { from: t0 + 3 * minute + 1, to: t0 + 9 * minute, limit: 10 })).toEqual([]);
    expect(await store.read(group, { from: t0 + minute, to: t0 + minute, limit: 10 })).toEqual([]);
    expect(await store.read(group, { ...everything, limit: 0 })).toEqual([]);
    expect(await store.count(group)).toBe(5);
    expect(await store.oldest(group)).toBe(t0);
    await expect(store.read(group, { from: Number.NaN, to: t0, limit: 1 })).rejects.toThrow(/time/);
    await expect(store.read(group, { from: 0, to: t0, limit: -1 })).rejects.toThrow(/limit/);
  });

  it('gives the newest `limit` of a range that holds more, oldest first', async () => {
    const { store } = await make();
    await appendAll(
      store,
      Array.from({ length: 12 }, (_, index) => logEntry(index, t0 + index * minute)),
    );
    expect(idsOf(await store.read(group, { ...everything, limit: 3 }))).toEqual(['9', '10', '11']);
    expect(idsOf(await store.read(group, { from: t0, to: t0 + 5 * minute, limit: 2 }))).toEqual(['3', '4']);
  });

  it('logs a redelivered message once: the first one stays', async () => {
    const { store, other } = await make();
    expect(await store.append(logEntry(7, t0))).toBe(true);
    expect(await store.append(logEntry(7, t0, { text: 'again' }))).toBe(false);
    expect(await other.append(logEntry(7, t0 + minute, { text: 'later' }))).toBe(false);
    expect(await store.append(logEntry(7, t0, { spaceKey: 'discord:9' }))).toBe(true);
    expect(await store.read(group, everything)).toEqual([logEntry(7, t0)]);
    expect(await store.count(group)).toBe(1);
  });

  it('keeps the bound per space when two processes append at once: the oldest go, nothing else is lost', async () => {
    const { bounded } = await make();
    const [one, two] = bounded(10);
    // Shuffled times, so that what goes is decided by `at`, not by the order of arrival.
    const times = Array.from({ length: 40 }, (_, index) => (index * 17) % 40);
    const results = await Promise.all(times.map((at, index) => (index % 2 ? two : one).append(logEntry(`m${at}`, t0 + at * minute))));
    expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(10);
    expect(await one.count(group)).toBe(10);
    expect(idsOf(await two.read(group, everything))).toEqual(Array.from({ length: 10 }, (_, index) => `m${30 + index}`));
    expect(await one.oldest(group)).toBe(t0 + 30 * minute);
    // Older than all a full space keeps: not kept.
    expect(await two.append(logEntry('early', t0))).toBe(false);
    expect(await one.count(group)).toBe(10);

    const [wide, wideToo] = bounded(50);
    const space = 'line:room';
    const all = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 ? wide : wideToo).append(logEntry(index, t0, { spaceKey: space }))));
    expect(all.every(Boolean)).toBe(true);
    expect(await wide.count(space)).toBe(40);
    expect(await one.count(group)).toBe(10);
  });

  it('prunes what was said before a time, and counts what went', async () => {
    const { store } = await make();
    await appendAll(
      store,
      Array.from({ length: 6 }, (_, index) => logEntry(index, t0 + index * minute)),
    );
    await store.append(logEntry(0, t0, { spaceKey: 'discord:9' }));
    expect(await store.prune(group, t0 + 2 * minute)).toBe(2);
    expect(await store.prune(group, t0 + 2 * minute)).toBe(0);
    expect(idsOf(await store.read(group, everything))).toEqual(['2', '3', '4', '5']);
    expect(await store.oldest(group)).toBe(t0 + 2 * minute);
    expect(await store.count('discord:9')).toBe(1);
    await expect(store.prune(group, -1)).rejects.toThrow(/time/);
  });

  it('deletes a whole space (the log turned off), and only that space', async () => {
    const { store } = await make();
    await appendAll(store, [logEntry(1, t0), logEntry(2, t0 + minute), logEntry(1, t0, { spaceKey: 'discord:9' })]);
    expect(await store.deleteSpace(group)).toBe(2);
    expect(await store.deleteSpace(group)).toBe(0);
    expect(await store.read(group, everything)).toEqual([]);
    expect(await store.count(group)).toBe(0);
    expect(await store.oldest(group)).toBeUndefined();
    expect(await store.lastSaidBy(group, 'telegram:42', t0 + minute)).toBeUndefined();
    expect(await store.count('discord:9')).toBe(1);
    // A message after turning it on again is logged anew.
    expect(await store.append(logEntry(1, t0))).toBe(true);
  });

  it('lists the spaces that keep an entry, sorted and bounded; a deleted space is gone from the list', async () => {
    const { store } = await make();
    expect(await store.spaces(10)).toEqual([]);
    await appendAll(store, [logEntry(1, t0), logEntry(1, t0, { spaceKey: 'discord:9' }), logEntry(1, t0, { spaceKey: 'line:C*?[x]' })]);
    expect(await store.spaces(10)).toEqual(['discord:9', 'line:C*?[x]', group]);
    expect(await store.spaces(2)).toHaveLength(2);
    await store.deleteSpace('discord:9');
    await store.prune('line:C*?[x]', t0 + 1);
    expect(await store.spaces(10)).toEqual([group]);
  });

  it("tells when a speaker last said something before a time, that speaker's only", async () => {
    const { store } = await make();
    await appendAll(store, [
      logEntry(1, t0, { speakerKey: 'telegram:4' }),
      logEntry(2, t0 + minute),
      logEntry(3, t0 + 2 * minute, { speakerKey: 'telegram:4' }),
      logEntry(4, t0 + 3 * minute),
      logEntry(5, t0 + 4 * minute, { speakerKey: 'telegram:420' }),
      logEntry(6, t0 + 9 * minute, { spaceKey: 'telegram:-1001' }),
    ]);
    expect(await store.lastSaidBy(group, 'telegram:42', t0 + 9 * minute)).toBe(t0 + 3 * minute);
    // Before is exclusive: /summary's own message does not count as the last one.
    expect(await store.lastSaidBy(group, 'telegram:42', t0 + 3 * minute)).toBe(t0 + minute);
    expect(await store.lastSaidBy(group, 'telegram:42', t0 + minute)).toBeUndefined();
    expect(await store.lastSaidBy(group, 'telegram:4', t0 + 9 * minute)).toBe(t0 + 2 * minute);
    expect(await store.lastSaidBy(group, 'telegram:7', t0 + 9 * minute)).toBeUndefined();
    expect(await store.lastSaidBy('telegram:-1001', 'telegram:42', t0 + 9 * minute)).toBeUndefined();
    await store.prune(group, t0 + 2 * minute);
    expect(await store.lastSaidBy(group, 'telegram:42', t0 + 3 * minute)).toBeUndefined();
    expect(await store.lastSaidBy(group, 'telegram:42', t0 + 3 * minute + 1)).toBe(t0 + 3 * minute);
  });

  it('never mixes spaces: nothing of one is read, counted, pruned or deleted under another', async () => {
    const { store } = await make();
    const [a, b] = ['telegram:-1', 'telegram:-10'];
    await appendAll(store, [logEntry(1, t0, { spaceKey: a }), logEntry(2, t0 + minute, { spaceKey: a })]);
    expect(await store.read(b, everything)).toEqual([]);
    expect(await store.read('telegram:', everything)).toEqual([]);
    expect(await store.count(b)).toBe(0);
    expect(await store.oldest(b)).toBeUndefined();
    expect(await store.lastSaidBy(b, 'telegram:42', t0 + minute)).toBeUndefined();
    expect(await store.prune(b, t0 + 9 * minute)).toBe(0);
    expect(await store.deleteSpace(b)).toBe(0);
    expect(await store.read(a, everything)).toEqual([logEntry(1, t0, { spaceKey: a }), logEntry(2, t0 + minute, { spaceKey: a })]);
  });

  it("moves a space's entries to its new id; a message id the new space has stays; a second move changes nothing", async () => {
    const { store, bounded } = await make();
    const [old, fresh] = ['telegram:-1', 'telegram:-1001'];
    await appendAll(store, [logEntry(1, t0, { spaceKey: old }), logEntry(2, t0 + minute, { spaceKey: old, speakerKey: 'telegram:7' })]);
    const newer = logEntry(2, t0 + 5 * minute, { spaceKey: fresh, text: 'in the supergroup' });
    await appendAll(store, [newer, logEntry(9, t0, { spaceKey: 'discord:9' })]);
    await store.moveSpace(old, fresh);
    await store.moveSpace(old, fresh);
    await store.moveSpace(fresh, fresh);
    expect(await store.read(old, everything)).toEqual([]);
    expect(await store.count(old)).toBe(0);
    expect(await store.read(fresh, everything)).toEqual([logEntry(1, t0, { spaceKey: fresh }), newer]);
    expect(await store.lastSaidBy(fresh, 'telegram:42', t0 + minute)).toBe(t0);
    expect(await store.lastSaidBy(fresh, 'telegram:7', t0 + 9 * minute)).toBeUndefined();
    expect(await store.append(logEntry(1, t0 + 9 * minute, { spaceKey: fresh }))).toBe(false);
    expect(await store.count('discord:9')).toBe(1);

    // The new space's bound holds after a move.
    const [small] = bounded(3);
    await appendAll(small, [logEntry('a', t0, { spaceKey: 'line:a' }), logEntry('b', t0 + 2 * minute, { spaceKey: 'line:a' })]);
    await appendAll(small, [logEntry('c', t0 + minute, { spaceKey: 'line:b' }), logEntry('d', t0 + 3 * minute, { spaceKey: 'line:b' })]);
    await small.moveSpace('line:a', 'line:b');
    expect(idsOf(await small.read('line:b', everything))).toEqual(['c', 'b', 'd']);
  });

  it('cuts name and text between Thai graphemes, drops a link over its bound, refuses keys and times out of bounds', async () => {
    const { store } = await make();
    // Every grapheme is a consonant with a vowel and a tone mark: a cut between code points would strand a mark.
    const text = 'กี่'.repeat(500);
    const speaker = 'น้ำ'.repeat(40);
    expect(await store.append(logEntry(1, t0, { text, speaker, link: `https://t.me/${'x'.repeat(300)}` }))).toBe(true);
    const [kept] = await store.read(group, everything);
    expect(kept).toEqual(
      logEntry(1, t0, { text: cutAtGrapheme(text, groupLogBounds.textChars), speaker: cutAtGrapheme(speaker, groupLogBounds.speakerChars) }),
    );
    expect(kept?.text.length).toBeLessThanOrEqual(groupLogBounds.textChars);
    expect(kept?.text).toMatch(/^(กี่)+…$/u);
    expect(kept?.speaker).toMatch(/^(น้ำ)+…$/u);

    const tooLong = (chars: number) => 'ก'.repeat(chars + 1);
    await expect(store.append(logEntry(tooLong(groupLogBounds.messageIdChars), t0))).rejects.toThrow(/message id/);
    await expect(store.append(logEntry(2, t0, { spaceKey: tooLong(groupLogBounds.keyChars) }))).rejects.toThrow(/space key/);
    await expect(store.append(logEntry(2, t0, { speakerKey: tooLong(groupLogBounds.keyChars) }))).rejects.toThrow(/speaker key/);
    await expect(store.append(logEntry(2, t0, { speakerKey: 'telegram:\0' }))).rejects.toThrow(/speaker key/);
    await expect(store.append(logEntry('', t0))).rejects.toThrow(/message id/);
    await expect(store.append(logEntry(2, Number.NaN))).rejects.toThrow(/time/);
    await expect(store.append(logEntry(2, t0 + 0.5))).rejects.toThrow(/time/);
    expect(await store.count(group)).toBe(1);
  });

  it('skips stored entries it cannot read instead of failing', async () => {
    const { store, corrupt } = await make();
    await appendAll(
      store,
      Array.from({ length: 6 }, (_, index) => logEntry(index, t0 + index * minute)),
    );
    await corrupt(group, '1', 'body', '{"speakerKey":');
    await corrupt(group, '2', 'body', JSON.stringify({ speakerKey: 'telegram:42', speaker: 'x', text: 'ก'.repeat(groupLogBounds.textChars + 1) }));
    await corrupt(group, '3', 'body', JSON.stringify({ speakerKey: 42, speaker: 'x', text: 'y' }));
    await corrupt(group, '4', 'at', t0 + 4 * minute + 0.5);
    expect(await store.read(group, everything)).toEqual([logEntry(0, t0), logEntry(5, t0 + 5 * minute)]);
    expect(idsOf(await store.read(group, { ...everything, limit: 2 }))).toEqual(['5']);
    expect(await store.count(group)).toBe(6);
    expect(await store.deleteSpace(group)).toBe(6);
  });

  it('keeps the log across reopening', async () => {
    const harness = await make();
    await appendAll(harness.store, [logEntry(1, t0), logEntry(2, t0 + minute, { link: 'https://t.me/c/123/2' })]);
    const reopened = await harness.reopen();
    expect(await reopened.read(group, everything)).toEqual([logEntry(1, t0), logEntry(2, t0 + minute, { link: 'https://t.me/c/123/2' })]);
    expect(await reopened.lastSaidBy(group, 'telegram:42', t0 + 2 * minute)).toBe(t0 + minute);
    expect(await reopened.append(logEntry(2, t0 + minute))).toBe(false);
    expect(await reopened.count(group)).toBe(2);
  });
}
