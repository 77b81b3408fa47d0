import { afterEach, describe, expect, it } from 'vitest';
import { groupSource, lineGroupId, lineUserId, userSource } from '../../fakes/line/index.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// /whoami through the real @line/bot-sdk on the fake: the LINE user id (U…) in the form ADMIN_IDS takes, and no
// line about group admins, which LINE does not have; the /kb refusal points to ADMIN_IDS and /whoami instead.

const somchai = lineUserId('somchai');
const group = lineGroupId('team');

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('LINE /whoami', () => {
  it('tells a user their ADMIN_IDS id in a direct chat, in Thai', async () => {
    harness = await startLineHarness();
    await harness.deliver(harness.line.textEvent({ source: userSource(somchai), text: '/whoami' }));
    const answer = harness.sentTexts(somchai).at(-1) ?? '';
    expect(answer).toContain(`รหัสของคุณ (ใส่ใน ADMIN_IDS ได้ตามนี้): line:${somchai}`);
    expect(answer).toContain('แพลตฟอร์ม: LINE');
    expect(answer).toContain('ผู้ดูแลระบบของบอท (ADMIN_IDS): ไม่ใช่');
    expect(answer).not.toContain('ผู้ดูแลกลุ่มนี้');
  });

  it('in a group, in English, says the group and whether the sender is a bot admin; /kb is refused without group admins', async () => {
    harness = await startLineHarness({ environment: { BOT_LANGUAGE: 'en' } });
    const mention = { mentions: [{ match: '@แสง', kind: 'self' as const }] };
    await harness.deliver(harness.line.textEvent({ source: groupSource(group, somchai), text: '@แสง /whoami', ...mention }));
    const answer = harness.sentTexts(group).at(-1) ?? '';
    expect(answer).toContain(`Your id (as ADMIN_IDS takes it): line:${somchai}`);
    expect(answer).toContain(`This conversation: line:${group}`);
    expect(answer).toContain('Bot admin (ADMIN_IDS): no');
    expect(answer).not.toContain('Admin of this group');

    await harness.deliver(harness.line.textEvent({ source: groupSource(group, somchai), text: '@แสง /kb create คู่มือ', ...mention }));
    expect(harness.sentTexts(group).at(-1)).toBe('Sorry, /kb is only for the bot admins (ADMIN_IDS). Type /whoami to see your id for ADMIN_IDS.');
  });
});
