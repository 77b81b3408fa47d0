import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createUsageCommand, parsePeriod, usageTopCount } from '../../../src/commands/usage.js';
import { formatDuration, formatNumber } from '../../../src/commands/usage-report.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, Language, Platform } from '../../../src/shared/types.js';
import { SqliteUsageStore } from '../../../src/storage/sqlite-usage-store.js';
import type { UsageStore } from '../../../src/storage/usage-store.js';
import { entry } from '../../support/usage-store-contract.js';

// /usage over a real SQLite usage store: who may see what (group admins their group, bot admins everything), the
// group's sums and top users, the bot-wide top spaces, the period word, Thai by default and English, numbers for people.

const now = new Date('2026-03-05T05:00:00Z'); // 12:00 in Bangkok
const today = '2026-03-05';

interface Caller {
  platform?: Platform;
  chatKind?: 'group' | 'direct';
  globalAdmin?: boolean;
  groupAdmin?: boolean;
  language?: Language;
}

function context(caller: Caller): CommandContext {
  const platform = caller.platform ?? 'telegram';
  const chatKind = caller.chatKind ?? 'group';
  const chat = chatKind === 'group' ? `${platform}:-100` : `${platform}:900`;
  const message: InboundMessage = {
    platform,
    conversationKey: chat,
    spaceKey: chat,
    messageId: '1',
    chatKind,
    sender: { id: '900', name: 'แอดมิน', isPlatformAdmin: caller.groupAdmin ?? false },
    text: '/usage',
    mentionsBot: false,
    repliesToBot: false,
    attachments: [],
    receivedAt: now,
  };
  return {
    message,
    language: caller.language ?? 'th',
    isGlobalAdmin: caller.globalAdmin ?? false,
    log: silentLogger(),
    now: () => now,
    progress: () => undefined,
    download: () => Promise.reject(new Error('no attachments here')),
  };
}

async function run(store: UsageStore, caller: Caller, words: string[] = []): Promise<string> {
  const command = createUsageCommand(store, { timeZone: 'Asia/Bangkok' });
  return (await command.run({ name: 'usage', rest: words.join(' '), words }, context(caller))).text;
}

function storeWithTwoUsers(): UsageStore {
  const store = new SqliteUsageStore(new Database(':memory:'));
  void store.add(entry(today, 'telegram:-100', 'telegram:1', { turns: 3, modelMs: 125_000, promptTokens: 1_234_567, generatedTokens: 890 }, 'สมชาย_*'));
  void store.add(entry(today, 'telegram:-100', 'telegram:2', { turns: 1, modelMs: 4_000, searches: 2, ocrPages: 1 }, 'สมหญิง'));
  void store.add(entry('2026-02-25', 'telegram:-100', 'telegram:2', { turns: 5 }, 'สมหญิง'));
  void store.add(entry(today, 'discord:7', 'discord:3', { turns: 7 }, 'Ploy'));
  return store;
}

describe('/usage', () => {
  it("shows a group's admin the group's sums per period and its top users, most turns first, in Thai", async () => {
    const text = await run(storeWithTwoUsers(), { groupAdmin: true });
    expect(text.split('\n')).toEqual([
      'การใช้งานของกลุ่มนี้ (`telegram:-100`)',
      '- วันนี้: 4 ครั้ง · เวลาโมเดล 2 นาที · โทเค็นพรอมต์ 1,234,567 · โทเค็นที่สร้าง 890 · ค้นเว็บ 2 · อ่านรูป (OCR) 1',
      '- 7 วัน: 4 ครั้ง · เวลาโมเดล 2 นาที · โทเค็นพรอมต์ 1,234,567 · โทเค็นที่สร้าง 890 · ค้นเว็บ 2 · อ่านรูป (OCR) 1',
      '- 30 วัน: 9 ครั้ง · เวลาโมเดล 2 นาที · โทเค็นพรอมต์ 1,234,567 · โทเค็นที่สร้าง 890 · ค้นเว็บ 2 · อ่านรูป (OCR) 1',
      '',
      'ผู้ใช้ที่ใช้มากที่สุด (7 วัน):',
      '1. สมชาย\\_\\* — 3 ครั้ง · เวลาโมเดล 2 นาที · โทเค็นพรอมต์ 1,234,567 · โทเค็นที่สร้าง 890 · ค้นเว็บ 0 · อ่านรูป (OCR) 0',
      '2. สมหญิง — 1 ครั้ง · เวลาโมเดล 4 วินาที · โทเค็นพรอมต์ 0 · โทเค็นที่สร้าง 0 · ค้นเว็บ 2 · อ่านรูป (OCR) 1',
      '',
      'นับเฉพาะคำถามที่ส่งให้โมเดลตอบ (รวมที่ล้มเหลวหรือถูกยกเลิก) ไม่นับคำสั่งอย่าง /research · เก็บไว้ 31 วัน',
    ]);
  });

  it('ranks the top list over the period asked for (Thai or English words)', async () => {
    const store = storeWithTwoUsers();
    expect(await run(store, { groupAdmin: true }, ['30d'])).toContain('1. สมหญิง — 6 ครั้ง');
    expect(await run(store, { groupAdmin: true }, ['เดือน'])).toContain('ผู้ใช้ที่ใช้มากที่สุด (30 วัน):');
    expect(await run(store, { groupAdmin: true }, ['lots'])).toBe('ไม่รู้จักช่วงเวลา “lots” ใช้ /usage today, /usage 7d หรือ /usage 30d');
    expect([parsePeriod(undefined), parsePeriod('TODAY'), parsePeriod('วันนี้'), parsePeriod('7'), parsePeriod('week')]).toEqual([
      '7d',
      'today',
      'today',
      '7d',
      '7d',
    ]);
  });

  it('shows a bot admin in a direct chat every space, top spaces first, in English', async () => {
    const text = await run(storeWithTwoUsers(), { chatKind: 'direct', globalAdmin: true, language: 'en' }, ['today']);
    expect(text).toContain('Usage of the whole bot');
    expect(text).toContain('- Today: turns 11 · model time 2 min · prompt tokens 1,234,567');
    expect(text).toContain('Top groups and chats (Today):');
    expect(text).toMatch(/1\. `discord:7` — turns 7[^\n]*\n2\. `telegram:-100` — turns 4/);
    expect(text).not.toContain('สมชาย');
  });

  it('shows at most ten users', async () => {
    const store = new SqliteUsageStore(new Database(':memory:'));
    for (let user = 1; user <= 12; user++) void store.add(entry(today, 'telegram:-100', `telegram:${user}`, { turns: user }, `user${user}`));
    const text = await run(store, { globalAdmin: true });
    expect(text.split('\n').filter((line) => /^\d+\. /.test(line))).toHaveLength(usageTopCount);
    expect(text).toContain('1. user12 — 12 ครั้ง');
    expect(text).not.toContain('user2 —');
  });

  it('refuses members, space admins outside a group, and (LINE has no group admins) points to ADMIN_IDS', async () => {
    const store = storeWithTwoUsers();
    expect(await run(store, {})).toBe('ขออภัยครับ คำสั่ง /usage ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น');
    expect(await run(store, { chatKind: 'direct', groupAdmin: true })).toBe(
      'ขออภัยครับ คำสั่ง /usage ใช้ได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) เท่านั้น พิมพ์ /whoami เพื่อดูรหัสของคุณสำหรับ ADMIN_IDS',
    );
    expect(await run(store, { platform: 'line' })).toContain('ADMIN_IDS');
    expect(await run(store, { language: 'en' })).toBe('Sorry, /usage is only for the admins of this group or the bot admins.');
  });

  it('writes numbers for people: grouped digits, seconds, minutes, hours', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect([formatDuration(0, 'th'), formatDuration(89_000, 'th'), formatDuration(30 * 60_000, 'th'), formatDuration(5_400_000, 'en')]).toEqual([
      '0 วินาที',
      '89 วินาที',
      '30 นาที',
      '1.5 h',
    ]);
  });
});
