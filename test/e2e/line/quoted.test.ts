import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { groupSource, lineGroupId, lineUserId } from '../../fakes/line/index.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// LINE sends only `quotedMessageId` with a quote: the bot keeps the messages it saw (and sent) per chat for a while
// and looks the id up — through the real adapter, webhook and app. A quote it never saw is said, not guessed.

const somchai = lineUserId('somchai');
const somsri = lineUserId('somsri');
const team = lineGroupId('team');
const other = lineGroupId('other');
const mention = [{ match: '@แสง', kind: 'self' as const }];

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('LINE: the message a question quotes', () => {
  it('finds a quoted group message in the store and puts it after the question', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    const chatter = line.textEvent({ source: groupSource(team, somsri), text: 'The meeting is moved to 2 pm tomorrow.' });
    await harness.deliver(chatter);
    model.script({ text: 'ประชุมเลื่อนเป็นบ่ายสองพรุ่งนี้ครับ' });
    await harness.deliver(
      line.textEvent({ source: groupSource(team, somchai), text: '@แสง แปลข้อความนี้หน่อย', mentions: mention, quotedMessageId: chatter.message.id }),
    );
    const content = JSON.stringify(newestUserContent(model.chatRequests[0]));
    expect(content).toContain('แปลข้อความนี้หน่อย');
    expect(content).toContain('The meeting is moved to 2 pm tomorrow.');
    expect(harness.sentTexts(team)).toEqual(['ประชุมเลื่อนเป็นบ่ายสองพรุ่งนี้ครับ']);
  });

  it('knows a quote of its own answer, and never finds a message of another chat', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    model.script({ text: 'ร้านเปิด 8 โมงครับ' });
    await harness.deliver(line.textEvent({ source: groupSource(team, somchai), text: '@แสง ร้านเปิดกี่โมง', mentions: mention }));
    const answer = line.sentMessages(team)[0];
    model.script({ text: 'ปิด 2 ทุ่มครับ' });
    await harness.deliver(line.textEvent({ source: groupSource(team, somsri), text: 'แล้วปิดกี่โมง', quotedMessageId: answer?.id ?? '' }));
    expect(JSON.stringify(newestUserContent(model.chatRequests[1]))).toContain('คำตอบก่อนหน้าของบอทที่ผู้ใช้ตอบกลับ');

    const elsewhere = line.textEvent({ source: groupSource(other, somsri), text: 'รหัสห้องประชุมคือ 4471' });
    await harness.deliver(elsewhere);
    model.script({ text: 'ไม่ทราบครับ' });
    await harness.deliver(
      line.textEvent({ source: groupSource(team, somchai), text: '@แสง อันนี้คืออะไร', mentions: mention, quotedMessageId: elsewhere.message.id }),
    );
    expect(JSON.stringify(newestUserContent(model.chatRequests[2]))).not.toContain('4471');
    expect(harness.sentTexts(team).at(-1)).toMatch(/^\(ไม่เห็นข้อความที่คุณตอบกลับ/);
  });
});
