import { afterEach, describe, expect, it } from 'vitest';
import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';
import { githubToken } from '../../support/fake-tokens.js';

// Streamed answers through real telegraf and the real app (docs/architecture.md, "Streaming answers"): what a draft,
// a posted live message or an edit showed never holds a credential or an unmarked unbacked figure, and the final
// message is the answer the same bot sends with streaming off.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const group = groupChat(-1001234567890, 'ทีมแสง');
const token = githubToken('ghp', 7); // checksum-valid, as GitHub issues them
const answer =
  'ราคาทองคำวันนี้ปรับตัวขึ้นเล็กน้อยเมื่อเทียบกับเมื่อวานครับ นักวิเคราะห์หลายสำนักคาดว่าราคาจะขึ้นอีก 3.7% ภายในสัปดาห์นี้ ' +
  'ตามแรงซื้อจากต่างประเทศที่ยังต่อเนื่อง และค่าเงินบาทที่อ่อนตัวลงในช่วงนี้ หากจะซื้อควรติดตามประกาศของสมาคมค้าทองคำอีกครั้งในช่วงบ่ายครับ';

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Every text the bot showed in a chat while answering: drafts, posted messages as first sent, and every edit. */
function everythingShown(bot: TelegramHarness): string[] {
  const { telegram } = bot;
  const texts = ['sendMessageDraft', 'sendMessage', 'editMessageText'].flatMap((method) =>
    telegram.callsOf(method).map((call) => String(call.params.text ?? '')),
  );
  return texts;
}

async function finalGroupAnswer(environment: Record<string, string>): Promise<{ final: string; shown: string[] }> {
  harness = await startTelegramHarness({ environment });
  harness.model.script({ text: answer, chunkSize: 3 });
  await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ราคาทองวันนี้เป็นยังไง' }));
  const texts = harness.sentTexts(group.id);
  const shown = everythingShown(harness);
  await harness.close();
  harness = undefined;
  expect(texts).toHaveLength(1);
  return { final: texts[0] ?? '', shown };
}

describe('Telegram streaming end to end', () => {
  it('in a group, streams into one message whose final text is the non-streamed answer, the unbacked figure marked throughout', async () => {
    const streamed = await finalGroupAnswer({});
    const whole = await finalGroupAnswer({ STREAM_PLATFORMS: 'off' });
    expect(streamed.final).toBe(whole.final);
    expect(streamed.final).toContain('[ตัวเลขยังไม่ยืนยัน]');
    // The live message was posted before the answer was finished, then completed by an edit.
    expect(streamed.shown.length).toBeGreaterThan(1);
    expect(whole.shown).toHaveLength(1);
    for (const text of streamed.shown) expect(text).not.toContain('3.7');
  });

  it('in a private chat, never shows any part of a token the model streams in small pieces', async () => {
    harness = await startTelegramHarness();
    harness.model.script({ text: `ได้เลยครับ นี่คือโทเค็นของระบบที่ขอมา ใช้กับ GitHub ได้ทันทีครับ ${token} อย่าลืมเก็บไว้ให้ดีนะครับ`, chunkSize: 2 });
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: 'ขอโทเค็น GitHub ของระบบหน่อย' }));
    const drafts = harness.telegram.drafts(direct.id);
    expect(drafts.length).toBeGreaterThan(0);
    for (const text of everythingShown(harness)) {
      expect(text).not.toContain('ghp');
      expect(text).not.toContain(token.slice(4, 12));
    }
    // The final message is the DLP's notice.
    expect(harness.sentTexts(direct.id)).toHaveLength(1);
    expect(harness.sentTexts(direct.id)[0]).not.toContain('ได้เลยครับ');
  });

  it('in a group, replaces the text of an answer cut for repeating itself with the fallback, in the same message', async () => {
    harness = await startTelegramHarness();
    harness.model.script({ repeatText: 'ราคาทองคำแท่งวันนี้ขึ้นอีกแล้ว ', times: 300, delayMs: 1 });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ราคาทองวันนี้เป็นยังไง' }));
    const texts = harness.sentTexts(group.id);
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('ราคาทองคำแท่งวันนี้ขึ้นอีกแล้ว ราคาทองคำแท่งวันนี้ขึ้นอีกแล้ว');
    expect(harness.handled.at(-1)?.turn?.stopReason).toBe('repetition');
  });
});
