import { expect, it } from 'vitest';
import { defaultReminderLimits, type ClaimedReminder, type NewReminder, type ReminderStore } from '../../src/reminders/reminder-store.js';

// What every reminder store keeps (test/src/reminders/sqlite-reminder-store.test.ts on SQLite,
// redis-reminder-store.test.ts on Redis). Time is passed in: no test waits for a lease to run out.

/** A stored field of one reminder, as a backend keeps it. */
export type StoredField = 'body' | 'number' | 'dueAt' | 'sentParts';

export interface ReminderStoreHarness {
  /** A store over fresh, empty storage. */
  store: ReminderStore;
  /** Another store object over the same storage (on Redis over another connection): a second bot process. */
  other: ReminderStore;
  /** The same storage with a store-wide capacity of `capacity` reminders. */
  withCapacity(capacity: number): ReminderStore;
  /** The storage closed and opened again (SQLite: the file; Redis: a new client): a store over what was kept. */
  reopen(): Promise<ReminderStore>;
  /** Overwrites one stored field of reminder `id` as written, unchecked (stored data is untrusted). */
  corrupt(id: string, field: StoredField, value: string): Promise<void>;
}

export const t0 = Date.UTC(2026, 2, 5, 2, 0);
const minute = 60_000;
const lease = 5 * minute;

export const newReminder = (more: Partial<NewReminder> = {}): NewReminder => ({
  spaceKey: 'telegram:-100123',
  userKey: 'telegram:42',
  userName: 'สมชาย',
  text: 'ประชุมทีม',
  dueAt: t0,
  timeZone: 'Asia/Bangkok',
  language: 'th',
  origin: JSON.stringify({ platform: 'telegram', chat: -100123, messageId: 7 }),
  createdAt: t0 - 60 * minute,
  ...more,
});

async function added(store: ReminderStore, more: Partial<NewReminder> = {}) {
  const result = await store.add(newReminder(more), defaultReminderLimits);
  if (!result.added) throw new Error(`not added: ${result.reason}`);
  return result.reminder;
}

function notClaimed(id: string): never {
  throw new Error(`${id} not claimed`);
}

const ids = (claims: readonly ClaimedReminder[]) => claims.map((claim) => claim.reminder.id).sort();

/** The contract both backends keep; `make()` opens fresh, empty storage. */
export function reminderStoreContract(make: () => Promise<ReminderStoreHarness>): void {
  it('adds, lists by due time, cancels, and numbers each space from 1 reusing freed numbers', async () => {
    const { store } = await make();
    const weeklyInput = newReminder({
      dueAt: t0 + 3 * minute,
      recurrence: { kind: 'weekly', weekday: 4 },
      timeOfDay: { hour: 9, minute: 3 },
      language: 'en',
      text: 'stand-up 🙂',
    });
    const weekly = await added(store, weeklyInput);
    const first = await added(store, { dueAt: t0 + minute });
    const third = await added(store, { dueAt: t0 + 2 * minute });
    const elsewhere = await added(store, { spaceKey: 'discord:9', dueAt: t0 });
    expect([weekly.number, first.number, third.number, elsewhere.number]).toEqual([1, 2, 3, 1]);
    expect(weekly).toEqual({ ...weeklyInput, id: expect.any(String), number: 1, sentParts: [] });
    expect(await store.list('telegram:-100123')).toEqual([first, third, weekly]);
    expect(await store.count()).toBe(4);

    expect(await store.cancel('telegram:-100123', 2)).toEqual(first);
    expect(await store.cancel('telegram:-100123', 2)).toBeUndefined();
    expect(await store.cancel('discord:1', 1)).toBeUndefined();
    expect((await added(store, { dueAt: t0 + 9 * minute })).number).toBe(2);
    expect((await store.list('telegram:-100123')).map((reminder) => reminder.number)).toEqual([3, 1, 2]);
    expect(await store.list('line:none')).toEqual([]);
  });

  it('bounds what it stores: text and name cut, an origin over 16 KB or a malformed field refused', async () => {
    const { store } = await make();
    const long = await added(store, { text: 'ก'.repeat(600), userName: 'น'.repeat(150) });
    expect(long.text).toHaveLength(500);
    expect(long.text.endsWith('…')).toBe(true);
    expect(long.userName).toHaveLength(100);
    expect((await store.list(long.spaceKey))[0]).toEqual(long);
    await expect(store.add(newReminder({ origin: 'x'.repeat(16 * 1024 + 1) }), defaultReminderLimits)).rejects.toThrow(/origin/);
    await expect(store.add(newReminder({ timeZone: '' }), defaultReminderLimits)).rejects.toThrow(/timeZone/);
    await expect(store.add(newReminder({ dueAt: Number.NaN }), defaultReminderLimits)).rejects.toThrow(/dueAt/);
    await expect(store.add(newReminder({ recurrence: { kind: 'weekly', weekday: 9 } }), defaultReminderLimits)).rejects.toThrow(/recurrence/);
    expect(await store.count()).toBe(1);
  });

  it('keeps the limits per user and per space when two processes add at once, and a store-wide capacity', async () => {
    const { store, other, withCapacity } = await make();
    const limits = { perSpace: 12, perUser: 5 };
    const sameUser = await Promise.all(Array.from({ length: 16 }, (_, index) => (index % 2 ? other : store).add(newReminder(), limits)));
    expect(sameUser.filter((result) => result.added)).toHaveLength(5);
    expect(sameUser.filter((result) => !result.added && result.reason === 'user-full')).toHaveLength(11);
    const users = await Promise.all(
      Array.from({ length: 16 }, (_, index) => (index % 2 ? other : store).add(newReminder({ userKey: `telegram:${index}` }), limits)),
    );
    expect(users.filter((result) => result.added)).toHaveLength(7);
    expect(users.filter((result) => !result.added && result.reason === 'space-full')).toHaveLength(9);
    const numbers = (await store.list('telegram:-100123')).map((reminder) => reminder.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));

    const small = withCapacity(13);
    expect((await small.add(newReminder({ spaceKey: 'discord:1' }), limits)).added).toBe(true);
    expect(await small.add(newReminder({ spaceKey: 'discord:2' }), limits)).toEqual({ added: false, reason: 'space-full' });
    expect(await store.count()).toBe(13);
  });

  it('hands each due reminder to exactly one of two claimers at once, and none again while the lease holds', async () => {
    const { store, other } = await make();
    const due = await Promise.all(
      Array.from({ length: 20 }, (_, index) => added(store, { spaceKey: `telegram:-${index % 3}`, userKey: `u${index}`, dueAt: t0 - index })),
    );
    await added(store, { dueAt: t0 + 10 * minute });
    await added(store, { dueAt: t0 + 9 * minute });
    const rounds = await Promise.all([store.claimDue(t0, lease, 6), other.claimDue(t0, lease, 6), store.claimDue(t0, lease, 6), other.claimDue(t0, lease, 6)]);
    const claimed = rounds.flat();
    expect(ids(claimed)).toEqual(due.map((reminder) => reminder.id).sort());
    expect(new Set(claimed.map((claim) => claim.lease)).size).toBe(20);
    expect(await other.claimDue(t0 + lease - 1, lease, 50)).toEqual([]);
    // The scheduler's next look: the first not yet due, before the leases end.
    expect(await store.nextDueAt()).toBe(t0 + lease);
    expect(await store.claimDue(t0, lease, 0)).toEqual([]);
    for (const claim of claimed) expect(await store.complete(claim)).toBe(true);
    expect(await other.nextDueAt()).toBe(t0 + 9 * minute);
    expect(await store.count()).toBe(2);
  });

  it("re-claims an expired lease with a new token: the old claim's writes then change nothing", async () => {
    const { store, other } = await make();
    const reminder = await added(store);
    const [old] = await store.claimDue(t0, lease, 10);
    if (!old) throw new Error('not claimed');
    expect(old.reminder).toEqual(reminder);
    expect(await store.markPartSent(old, 0)).toBe(true);
    expect(await store.renew(old, t0 + minute, lease)).toBe(true);
    expect(await other.claimDue(t0 + lease, lease, 10)).toEqual([]);

    const [taken] = await other.claimDue(t0 + minute + lease, lease, 10);
    if (!taken) throw new Error('not re-claimed');
    expect(taken.lease).not.toBe(old.lease);
    // The journal carries over: only the part in flight can repeat.
    expect(taken.reminder.sentParts).toEqual([0]);
    expect(await store.renew(old, t0 + minute + lease, lease)).toBe(false);
    expect(await store.markPartSent(old, 1)).toBe(false);
    expect(await store.complete(old)).toBe(false);
    expect((await store.list(reminder.spaceKey))[0]?.sentParts).toEqual([0]);
    expect(await other.markPartSent(taken, 1)).toBe(true);
    expect(await other.complete(taken)).toBe(true);
    expect(await store.count()).toBe(0);
  });

  it('moves a recurring reminder to its next time with its parts cleared; deletes a one-shot one', async () => {
    const { store } = await make();
    const daily = await added(store, { recurrence: { kind: 'daily' }, timeOfDay: { hour: 9, minute: 0 } });
    const once = await added(store);
    const claims = await store.claimDue(t0, lease, 10);
    const claimOf = (id: string) => claims.find((claim) => claim.reminder.id === id) ?? notClaimed(id);
    for (const part of [0, 1, 1]) expect(await store.markPartSent(claimOf(daily.id), part)).toBe(true);
    expect((await store.list(daily.spaceKey)).find((reminder) => reminder.id === daily.id)?.sentParts).toEqual([0, 1]);
    await expect(store.markPartSent(claimOf(daily.id), -1)).rejects.toThrow();

    const tomorrow = t0 + 24 * 60 * minute;
    expect(await store.complete(claimOf(daily.id), tomorrow)).toBe(true);
    expect(await store.complete(claimOf(once.id))).toBe(true);
    expect(await store.list(daily.spaceKey)).toEqual([{ ...daily, dueAt: tomorrow, sentParts: [] }]);
    // The lease is freed: the finished claim can do nothing more, and nothing is due before tomorrow.
    expect(await store.complete(claimOf(daily.id), tomorrow + 1)).toBe(false);
    expect(await store.markPartSent(claimOf(daily.id), 2)).toBe(false);
    expect(await store.nextDueAt()).toBe(tomorrow);
    expect(await store.claimDue(tomorrow - 1, lease, 10)).toEqual([]);
    expect(ids(await store.claimDue(tomorrow, lease, 10))).toEqual([daily.id]);
    expect((await added(store)).number).toBe(2);
  });

  it('a reminder cancelled while claimed cannot be completed or marked', async () => {
    const { store } = await make();
    const reminder = await added(store);
    const [claim] = await store.claimDue(t0, lease, 1);
    if (!claim) throw new Error('not claimed');
    expect(await store.cancel(reminder.spaceKey, reminder.number)).toEqual(reminder);
    expect(await store.markPartSent(claim, 0)).toBe(false);
    expect(await store.renew(claim, t0, lease)).toBe(false);
    expect(await store.complete(claim, t0 + minute)).toBe(false);
    expect(await store.count()).toBe(0);
    expect(await store.nextDueAt()).toBeUndefined();
  });

  it('lists the spaces holding a reminder, sorted and bounded; a space whose last reminder went is gone', async () => {
    const { store } = await make();
    expect(await store.spaces(10)).toEqual([]);
    await added(store, { spaceKey: 'telegram:-1' });
    await added(store, { spaceKey: 'telegram:-1' });
    await added(store, { spaceKey: 'discord:7' });
    await added(store, { spaceKey: 'line:C*?[x]' });
    expect(await store.spaces(10)).toEqual(['discord:7', 'line:C*?[x]', 'telegram:-1']);
    expect(await store.spaces(1)).toHaveLength(1);
    await store.cancel('discord:7', 1);
    expect(await store.spaces(10)).toEqual(['line:C*?[x]', 'telegram:-1']);
  });

  it("moves a space's reminders to its new id, keeping numbers where free; a second move changes nothing", async () => {
    const { store } = await make();
    const one = await added(store, { spaceKey: 'telegram:-1' });
    await added(store, { spaceKey: 'telegram:-1' });
    const three = await added(store, { spaceKey: 'telegram:-1' });
    await store.cancel('telegram:-1', 2);
    const there = await added(store, { spaceKey: 'telegram:-1001', dueAt: t0 - 1 });
    await store.moveSpace('telegram:-1', 'telegram:-1001');
    await store.moveSpace('telegram:-1', 'telegram:-1001');
    await store.moveSpace('telegram:-1001', 'telegram:-1001');
    expect(await store.list('telegram:-1')).toEqual([]);
    const moved = await store.list('telegram:-1001');
    expect(moved.map((reminder) => [reminder.id, reminder.number])).toEqual([
      [there.id, 1],
      [one.id, 2],
      [three.id, 3],
    ]);
    expect(moved.every((reminder) => reminder.spaceKey === 'telegram:-1001')).toBe(true);
    expect(await store.cancel('telegram:-1001', 2)).toMatchObject({ id: one.id, spaceKey: 'telegram:-1001' });
    expect((await added(store, { spaceKey: 'telegram:-1' })).number).toBe(1);
  });

  it('keeps reminders, their numbers, journal and leases across reopening', async () => {
    const harness = await make();
    const kept = await added(harness.store, { recurrence: { kind: 'weekdays' }, timeOfDay: { hour: 8, minute: 30 } });
    const later = await added(harness.store, { dueAt: t0 + minute });
    const [claim] = await harness.store.claimDue(t0, lease, 10);
    if (!claim) throw new Error('not claimed');
    expect(await harness.store.markPartSent(claim, 3)).toBe(true);
    const reopened = await harness.reopen();
    expect(await reopened.list(kept.spaceKey)).toEqual([{ ...kept, sentParts: [3] }, later]);
    expect(await reopened.count()).toBe(2);
    expect(await reopened.claimDue(t0 + minute, lease, 10)).toEqual([{ reminder: later, lease: expect.any(String) }]);
    // A claim made before the restart still holds its lease.
    expect(await reopened.complete(claim, t0 + 24 * 60 * minute)).toBe(true);
  });

  it('drops a malformed stored reminder instead of failing: skipped in lists, deleted when claimed', async () => {
    const { store, corrupt } = await make();
    const good = await added(store, { dueAt: t0 - 1 });
    const broken = await Promise.all(Array.from({ length: 5 }, (_, index) => added(store, { dueAt: t0 + index })));
    const [notJson, bigText, badNumber, badDue, badParts] = broken.map((reminder) => reminder.id) as [string, string, string, string, string];
    await corrupt(notJson, 'body', '{"userKey":');
    const { spaceKey: _space, dueAt: _due, ...body } = newReminder({ text: 'ก'.repeat(501) });
    await corrupt(bigText, 'body', JSON.stringify(body));
    await corrupt(badNumber, 'number', 'three');
    await corrupt(badDue, 'dueAt', '');
    await corrupt(badParts, 'sentParts', '1,,x');
    expect(await store.list(good.spaceKey)).toEqual([good]);
    expect(await store.count()).toBe(6);
    const claimed = await store.claimDue(t0 + minute, lease, 2);
    expect(ids(claimed)).toEqual([good.id]);
    expect(await store.count()).toBe(1);
    expect(await store.cancel(good.spaceKey, good.number)).toEqual(good);
  });
}
