import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { makePagesPdf } from '../../support/knowledge/documents.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { renderTextImage } from '../../support/text-images.js';

// A scanned PDF (page images, no text layer) added to a knowledge base with /kb add, through the real router,
// pdftoppm and tesseract; a later question finds its second page, and the source list names that page.

const pageOne = ['ประกาศร้านกาแฟแสงเช้า', 'เปิดทุกวัน เวลา 07.00 ถึง 18.00 น.'].join('\n');
const pageTwo = ['โปรโมชันประจำเดือน', 'ลูกค้าสมาชิกรับส่วนลดทุกวันพุธ 15 เปอร์เซ็นต์'].join('\n');

let model: FakeModelServer;
let test: TestApp;
afterEach(async () => {
  await test.close();
  await model.close();
});

describe('a scanned PDF in a knowledge base', () => {
  it('is read page by page, and a later question finds page 2 with the page in its source', async () => {
    model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    test = createTestApp({ modelUrl: model.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' } });
    const pages = await Promise.all([pageOne, pageTwo].map((text) => renderTextImage({ text, points: 14, dpi: 200 })));
    const scan = path.join(test.dataDir, 'promotions.pdf');
    writeFileSync(scan, await makePagesPdf(pages, 200));

    expect((await test.ask('/kb create ร้าน')).replies[0]?.text).toContain('ร้าน');
    const added = await test.ask('/kb add ร้าน', { attachmentPaths: [scan] });
    expect(added.replies.map((reply) => reply.text).join('\n')).toMatch(/✅ “promotions\.pdf” เพิ่มแล้ว/);
    expect((await test.ask('/kb bind ร้าน')).replies[0]?.text).toContain('ร้าน');

    model.script(
      { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: 'ส่วนลดสมาชิกวันพุธ' } }] },
      { text: 'สมาชิกได้ส่วนลดทุกวันพุธ 15 เปอร์เซ็นต์ค่ะ' },
    );
    const handled = await test.ask('สมาชิกได้ส่วนลดวันไหน เท่าไหร่');
    model.assertAllConsumed();
    const toolResult = String(messagesOf(model.chatRequests[1]).find((message) => message.role === 'tool')?.content);
    expect(toolResult).toContain('ส่วนลดทุกวันพุธ 15');
    expect(toolResult).toContain('[source: ร้าน › promotions.pdf, หน้า 2]');
    const reply = handled.replies.at(-1)?.text ?? '';
    expect(reply).toContain('สมาชิกได้ส่วนลดทุกวันพุธ 15 เปอร์เซ็นต์ค่ะ');
    expect(reply).toContain('ร้าน › promotions.pdf, หน้า 2');
    expect(reply).not.toContain('ตัวเลขยังไม่ยืนยัน');
  });
});
