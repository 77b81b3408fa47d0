import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../../adapters/console/index.js';
import { lateNoteText, latenessOf, type LateSettings } from '../../../src/pipeline/late-answer.js';
import { sentAtText } from '../../../src/shared/sent-at-text.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { inboundMessage } from '../../support/inbound-message.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// A stale message's answer: how late is late (from the platform's timestamp), the note's date in the bot's time zone,
// and — through the real router and agent — the note in front of the answer but not in the history.

const now = Date.UTC(2026, 11, 6, 9, 30); // 6 Dec 2026, 16:30 in Bangkok
const minute = 60_000;
const settings = (overrides: Partial<LateSettings> = {}): LateSettings => ({
  maxAgeMs: 30 * minute,
  missedAgeMs: 24 * 60 * minute,
  timeZone: 'Asia/Bangkok',
  language: 'th',
  now: () => now,
  ...overrides,
});
const sentAgo = (ms: number, text = 'ร้านเปิดกี่โมง') => inboundMessage({ text, receivedAt: new Date(now - ms) });

describe('latenessOf', () => {
  it('counts from receivedAt: fresh, late past MAX_MESSAGE_AGE_MS, missed past MISSED_MESSAGE_AGE_MS', () => {
    expect(latenessOf(sentAgo(30 * minute), settings())).toBe('fresh');
    expect(latenessOf(sentAgo(31 * minute), settings())).toBe('late');
    expect(latenessOf(sentAgo(24 * 60 * minute + 1), settings())).toBe('missed');
  });

  it('leaves commands alone however old, and 0 turns a limit off', () => {
    expect(latenessOf(sentAgo(3 * 24 * 60 * minute, '/status'), settings())).toBe('fresh');
    expect(latenessOf(sentAgo(3 * 24 * 60 * minute, '  /reset'), settings())).toBe('fresh');
    expect(latenessOf(sentAgo(3 * 24 * 60 * minute), settings({ missedAgeMs: 0 }))).toBe('late');
    expect(latenessOf(sentAgo(3 * 24 * 60 * minute), settings({ missedAgeMs: 0, maxAgeMs: 0 }))).toBe('fresh');
  });
});

describe('sentAtText', () => {
  it('says the day and time in the bot time zone, the year only when it is not this one (Buddhist era in Thai)', () => {
    const fifth = new Date(Date.UTC(2026, 11, 5, 7, 2));
    expect(sentAtText(fifth, 'th', 'Asia/Bangkok', now)).toBe('5 ธ.ค. 14:02 น.');
    expect(sentAtText(fifth, 'en', 'Asia/Bangkok', now)).toBe('5 Dec 14:02');
    expect(sentAtText(fifth, 'en', 'Europe/London', now)).toBe('5 Dec 07:02');
    const lastYear = new Date(Date.UTC(2025, 11, 31, 16, 0));
    expect(sentAtText(lastYear, 'th', 'Asia/Bangkok', now)).toBe('31 ธ.ค. 2568 23:00 น.');
    expect(sentAtText(lastYear, 'en', 'Asia/Bangkok', now)).toBe('31 Dec 2025 23:00');
  });
});

describe('lateNoteText', () => {
  it('says when the message was sent, in the bot’s time zone and language', () => {
    const sent = new Date(Date.UTC(2026, 11, 5, 7, 2));
    expect(lateNoteText(sent, settings())).toBe('(ตอบช้า: ข้อความนี้ส่งมาเมื่อ 5 ธ.ค. 14:02 น.)');
    expect(lateNoteText(sent, settings({ language: 'en' }))).toBe('(Late answer: this message was sent on 5 Dec 14:02)');
  });
});

describe('a late message through the router', () => {
  let fake: FakeModelServer;
  let test: TestApp;
  beforeEach(async () => {
    fake = await startFakeModelServer({ flavour: 'generic' });
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off' }, now: () => new Date(now) });
  });
  afterEach(async () => {
    await test.close();
    await fake.close();
  });

  it('answers with the note in front; the history keeps the model answer alone', async () => {
    fake.script({ text: 'ร้านเปิด 8 โมงครับ' }, { text: 'ได้ครับ' });
    const asked = await consoleMessage({ text: 'ร้านเปิดกี่โมง', userId: 'owner' });
    const late = await test.send({ ...asked, receivedAt: new Date(now - 2 * 60 * minute) });
    expect(late.replies.map((reply) => reply.text)).toEqual(['(ตอบช้า: ข้อความนี้ส่งมาเมื่อ 6 ธ.ค. 14:30 น.)\n\nร้านเปิด 8 โมงครับ']);
    const next = await consoleMessage({ text: 'ขอบคุณ', userId: 'owner' });
    const fresh = await test.send({ ...next, receivedAt: new Date(now) });
    expect(fresh.replies.map((reply) => reply.text)).toEqual(['ได้ครับ']);
    const history = JSON.stringify(fake.chatRequests[1]?.messages);
    expect(history).toContain('ร้านเปิด 8 โมงครับ');
    expect(history).not.toContain('ตอบช้า');
  });

  it('runs a command as usual however old it is', async () => {
    const asked = await consoleMessage({ text: '/help', userId: 'owner' });
    const handled = await test.send({ ...asked, receivedAt: new Date(now - 3 * 24 * 60 * minute) });
    expect(handled.replies[0]?.text).toContain('/reset');
    expect(handled.replies[0]?.text).not.toContain('ตอบช้า');
  });
});
