import { afterEach, describe, expect, it } from 'vitest';
import { groupSource, lineGroupId, lineUserId, userSource } from '../../fakes/line/index.js';
import { shadePng, shownShades } from '../../support/shade-images.js';
import { renderTextImage } from '../../support/text-images.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// Images and files on LINE arrive as messages of their own: images before the mention join it (several of one
// imageSet together), content comes from the data API, an external image is never fetched, and files an admin sent
// are the documents of the next /kb add.

const somchai = lineUserId('somchai');
const group = lineGroupId('team');
const mention = { match: '@แสง', kind: 'self' as const };

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('LINE content', () => {
  it('joins the images of an imageSet sent before the mention to that question, read from the data API', async () => {
    harness = await startLineHarness({ environment: { MODEL_VISION: 'on' } });
    const { line, model } = harness;
    const source = groupSource(group, somchai);
    const shades = [70, 150];
    const pictures = await Promise.all(shades.map((shade) => shadePng(shade)));
    const images = pictures.map((bytes, index) =>
      line.imageEvent({ source, content: { bytes, contentType: 'image/png' }, imageSet: { id: 'set-1', index: index + 1, total: 2 } }),
    );
    await harness.deliver(...images);
    expect(model.chatRequests).toHaveLength(0);
    model.script({ text: 'สองใบเสร็จจากร้านเดียวกัน' });
    await harness.deliver(line.textEvent({ source, text: '@แสง อ่านให้หน่อย', mentions: [mention] }));
    expect(await shownShades(model.chatRequests[0])).toEqual(shades);
    expect(line.callsOf('GET /v2/bot/message/*/content')).toHaveLength(2);
    expect(harness.sentTexts(group)).toEqual(['สองใบเสร็จจากร้านเดียวกัน']);
  });

  it('never fetches an external image', async () => {
    harness = await startLineHarness({ environment: { MODEL_VISION: 'on' } });
    const { line, model } = harness;
    const source = groupSource(group, somchai);
    await harness.deliver(line.imageEvent({ source, external: { originalContentUrl: 'https://images.example.test/a.png' } }));
    model.script({ text: 'ไม่เห็นรูป' });
    await harness.deliver(line.textEvent({ source, text: '@แสง รูปนี้คืออะไร', mentions: [mention] }));
    expect(JSON.stringify(model.chatRequests[0])).not.toContain('image_url');
    expect(line.callsOf('GET /v2/bot/message/*/content')).toHaveLength(0);
  });

  it('adds a photo an admin sent just before in a group to the knowledge base of /kb add, read by OCR', async () => {
    harness = await startLineHarness({ environment: { ADMIN_IDS: `line:${somchai}` } });
    const { line, test } = harness;
    const source = groupSource(group, somchai);
    await harness.deliver(line.textEvent({ source, text: '/kb create ประกาศ' }));
    const notice = await renderTextImage({ text: 'ประกาศ\nร้านปิดปรับปรุงวันจันทร์ที่ 5 มกราคม' });
    await harness.deliver(line.imageEvent({ source, content: { bytes: notice, contentType: 'image/png' } }));
    await harness.deliver(line.textEvent({ source, text: '/kb add ประกาศ' }));
    expect(harness.sentTexts(group).at(-1)).toMatch(/✅ .* เพิ่มแล้ว/);
    const [knowledgeBase] = await test.app.knowledge.listKnowledgeBases({ spaceKey: `line:${group}` });
    const hits = await test.app.knowledge.search([knowledgeBase?.id ?? ''], 'ปิดปรับปรุง', 3);
    expect(hits.map((hit) => hit.text).join('\n')).toContain('ปิดปรับปรุง');
  });

  it('adds the files an admin sent just before to the knowledge base of /kb add, and says what a file is for in 1:1', async () => {
    harness = await startLineHarness({ environment: { ADMIN_IDS: `line:${somchai}` } });
    const { line, test } = harness;
    const source = userSource(somchai);
    await harness.deliver(line.textEvent({ source, text: '/kb create คู่มือ' }));
    await harness.deliver(line.fileEvent({ source, fileName: 'hours.txt', bytes: Buffer.from('ร้านเปิดทุกวัน แปดโมงเช้าถึงสองทุ่ม\n') }));
    expect(harness.sentTexts(somchai).at(-1)).toContain('ได้รับไฟล์ hours.txt แล้ว');
    await harness.deliver(line.textEvent({ source, text: '/kb add คู่มือ' }));
    expect(harness.sentTexts(somchai).at(-1)).toContain('hours.txt');
    const [knowledgeBase] = await test.app.knowledge.listKnowledgeBases({ spaceKey: `line:${somchai}` });
    expect((await test.app.knowledge.documents(knowledgeBase?.id ?? '')).map((document) => document.sourceName)).toEqual(['hours.txt']);
  });
});
