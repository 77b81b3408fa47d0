import { afterEach, describe, expect, it } from 'vitest';
import { groupSource, lineGroupId, lineUserId, userSource } from '../../fakes/line/index.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// Stickers and audio through the real @line/bot-sdk webhook and the real app: sent in a 1:1 chat they are answered
// with what the bot can read (through the reply token, no model call); a sticker to nobody in a group is not.

const somchai = lineUserId('somchai');
const group = lineGroupId('team');

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('LINE messages the bot cannot read', () => {
  it('answers a sticker and an audio message in a 1:1 chat with the Thai line', async () => {
    harness = await startLineHarness();
    const { line } = harness;
    await harness.deliver(line.stickerEvent({ source: userSource(somchai) }));
    await harness.deliver(line.audioEvent({ source: userSource(somchai) }));
    expect(harness.sentTexts(somchai)).toEqual([
      expect.stringMatching(/^ขออภัย แสงยังดูสติกเกอร์ไม่ได้ครับ .*PDF, DOCX, TXT/),
      expect.stringMatching(/^ขออภัย แสงยังฟังไฟล์เสียงไม่ได้ครับ /),
    ]);
    expect(line.callsOf('POST /v2/bot/message/reply')).toHaveLength(2);
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it('leaves a sticker to nobody in a group unanswered, and answers one that replies to the bot', async () => {
    harness = await startLineHarness();
    const { line } = harness;
    const source = groupSource(group, somchai);
    await harness.deliver(line.stickerEvent({ source }));
    expect(harness.sentTexts(group)).toEqual([]);
    harness.model.script({ text: 'ร้านเปิดแปดโมง' });
    await harness.deliver(line.textEvent({ source, text: '@แสง ร้านเปิดกี่โมง', mentions: [{ match: '@แสง', kind: 'self' }] }));
    const [answer] = line.sentMessages(group);
    await harness.deliver(line.stickerEvent({ source, quotedMessageId: answer?.id ?? '' }));
    expect(harness.sentTexts(group)).toEqual(['ร้านเปิดแปดโมง', expect.stringMatching(/^ขออภัย แสงยังดูสติกเกอร์ไม่ได้ครับ /)]);
    expect(harness.handled.map((handled) => handled.admission.reason)).toEqual(['empty', 'mention', 'reply-to-bot']);
  });
});
