import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../../adapters/console/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { directReplies } from '../../../src/pipeline/reply-journal.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

let fake: FakeModelServer;
let test: TestApp;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'generic' });
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off', USER_MESSAGES_PER_MINUTE: '2', MAX_MESSAGE_CHARS: '100' },
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

describe('router', () => {
  it('never answers a re-delivered message twice', async () => {
    fake.script({ text: 'ครั้งเดียว' });
    const message = await consoleMessage({ text: 'สวัสดี', userId: 'owner' });
    const first = await test.send(message);
    const again = await test.send({ ...message });
    expect(first.replies).toHaveLength(1);
    expect(again).toMatchObject({ admission: { kind: 'ignore', reason: 'duplicate' }, replies: [] });
    fake.assertAllConsumed();
  });

  it('ignores group chatter without calling the model, and says why', async () => {
    const handled = await test.ask('คุยกันเอง', { group: true });
    expect(handled).toMatchObject({ admission: { kind: 'ignore', reason: 'group-not-addressed' }, replies: [] });
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('answers a mention in a group', async () => {
    fake.script({ text: 'ว่าไงครับ' });
    const handled = await test.ask('ช่วยหน่อย', { group: true, mention: true });
    expect(handled.replies[0]?.text).toBe('ว่าไงครับ');
  });

  it('tells a flooding user once, in Thai, and does not call the model for them', async () => {
    fake.script({ text: 'หนึ่ง' }, { text: 'สอง' });
    const results = [];
    for (let index = 0; index < 4; index++) results.push(await test.ask(`ข้อความ ${index}`, { userId: 'flooder' }));
    expect(results.map((result) => result.replies.length)).toEqual([1, 1, 1, 0]);
    expect(results[2]?.replies[0]?.text).toContain('ถี่เกินไป');
    expect(fake.chatRequests).toHaveLength(2);
  });

  it('does not charge the quota again for a message resumed after a crash or a take-over', async () => {
    fake.script({ text: 'หนึ่ง' }, { text: 'สอง' }, { text: 'ต่อจากเดิม' });
    for (const text of ['หนึ่ง', 'สอง']) await test.ask(text, { userId: 'resumer' });
    // Both of this minute's messages are used; the third is one that already ran once (its process died).
    const resumed = await consoleMessage({ text: 'ข้อความที่ค้างอยู่', userId: 'resumer' });
    const sent: string[] = [];
    await test.app.router.process(resumed, { send: async (reply) => void sent.push(reply.text) }, directReplies(), { turnDone: () => undefined, attempt: 2 });
    expect(sent).toEqual(['ต่อจากเดิม']);
    fake.assertAllConsumed();
  });

  it('refuses an oversized message with a clear Thai notice', async () => {
    const handled = await test.ask('ก'.repeat(150));
    expect(handled.replies[0]?.text).toContain('ยาวเกินไป');
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('runs /help, /status and /reset for everyone, /cmd@botname accepted', async () => {
    const help = await test.ask('/help', { userId: 'plain' });
    expect(help.replies[0]?.text).toContain('/reset');
    const status = await test.ask('/status', { userId: 'plain' });
    // A plain user's /status leaves the model server's address out (admins only).
    expect(status.replies[0]?.text).toContain('สถานะของบอท');
    expect(status.replies[0]?.text).not.toContain(fake.url);
    expect(status.replies[0]?.text).toContain('ไม่ได้'); // tools off by config
    fake.script({ text: 'จำไว้' });
    await test.ask('จำคำว่า มะม่วง');
    const reset = await test.ask('/reset@saeng');
    expect(reset.replies[0]?.text).toContain('ล้างประวัติ');
    fake.script({ text: 'ไม่มีประวัติ', expect: (body) => expect((body.messages as unknown[]).length).toBe(2) });
    await test.ask('คำเมื่อกี้คืออะไร');
    fake.assertAllConsumed();
  });
});
