import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../../adapters/console/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// The router reads the space's /settings once per message and everything after it takes them: the trigger at
// admission, the quota, the language of the bot's words and of the system prompt, the group's chatter, quotes.
// The console owner is a bot admin, so its /settings are applied; the others are group members.

let fake: FakeModelServer;
let test: TestApp;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'generic' });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off', USER_MESSAGES_PER_MINUTE: '5' } });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const group = { group: true, userId: 'member' };
const systemPrompt = (index: number) => String(messagesOf(fake.chatRequests[index])[0]?.content ?? '');
const lastUserMessage = (index: number) => JSON.stringify(messagesOf(fake.chatRequests[index]).at(-1)?.content ?? '');

describe('space settings in the route', () => {
  it('answers its name under the name trigger, and not a word that only contains it', async () => {
    await test.ask('/settings trigger name', { group: true });
    fake.script({ text: 'สรุปให้แล้วครับ' });
    const called = await test.ask('แสง ช่วยสรุปหน่อย', group);
    expect(called.admission).toEqual({ kind: 'dispatch', reason: 'name' });
    expect(called.replies[0]?.text).toBe('สรุปให้แล้วครับ');
    const chatter = await test.ask('แสงแดดวันนี้แรงมาก', group);
    expect(chatter.admission).toEqual({ kind: 'ignore', reason: 'group-not-addressed' });
    fake.assertAllConsumed();
  });

  it('answers every message of the conversation it was set in, and only there', async () => {
    await test.ask('/settings trigger every-message', { group: true, conversation: 'room-a' });
    fake.script({ text: 'ตอบในห้องนี้' });
    expect((await test.ask('ราคาทองวันนี้เท่าไร', { ...group, conversation: 'room-a' })).replies[0]?.text).toBe('ตอบในห้องนี้');
    expect((await test.ask('ราคาทองวันนี้เท่าไร', { ...group, conversation: 'room-b' })).admission.kind).toBe('ignore');
    fake.assertAllConsumed();
  });

  it('speaks the chosen language: the system prompt, the answer expected, and its own notices', async () => {
    fake.script({ text: 'Hello there.' });
    await test.ask('/settings language en', { group: true });
    await test.ask('สวัสดีครับ ช่วยหน่อย', { ...group, mention: true });
    expect(systemPrompt(0)).toContain('Always answer in English');
    // The fixed language: a Thai question answered in English is what the group asked for (no retry).
    expect(fake.chatRequests).toHaveLength(1);
    const quota = await test.ask('/settings quota 1', { group: true });
    expect(quota.replies[0]?.text).toContain('Saved.');
    fake.script({ text: 'One.' });
    await test.ask('first question', { ...group, mention: true, userId: 'flooder' });
    const refused = await test.ask('second question', { ...group, mention: true, userId: 'flooder' });
    expect(refused.replies[0]?.text).toBe('You are sending messages too fast (at most 1 per minute). Please wait a moment and try again.');
    fake.assertAllConsumed();
  });

  it('follows each asker under follow: an English question gets the English prompt, a Thai one the Thai prompt', async () => {
    await test.ask('/settings language follow');
    fake.script({ text: 'It is sunny.' }, { text: 'แดดออกครับ' });
    await test.ask('How is the weather today?');
    await test.ask('วันนี้อากาศเป็นอย่างไร');
    expect(systemPrompt(0)).toContain('You are');
    expect(systemPrompt(0)).not.toContain('Always answer in English');
    expect(systemPrompt(1)).toContain('คุณคือ');
    fake.assertAllConsumed();
  });

  it('puts the instructions at the end of the system prompt, the same bytes on every turn', async () => {
    await test.ask('/settings instructions ตอบให้สั้นที่สุด และลงท้ายด้วย 🌟');
    fake.script({ text: 'หนึ่ง 🌟' }, { text: 'สอง 🌟' });
    await test.ask('คำถามแรก');
    await test.ask('คำถามที่สอง');
    expect(systemPrompt(0).endsWith('ตอบให้สั้นที่สุด และลงท้ายด้วย 🌟')).toBe(true);
    expect(systemPrompt(1)).toBe(systemPrompt(0));
  });

  it('sends as many of the group chatter lines as the space asked for', async () => {
    for (const line of ['ข้อความที่หนึ่ง', 'ข้อความที่สอง', 'ข้อความที่สาม']) await test.ask(line, group);
    await test.ask('/settings context 1', { group: true });
    fake.script({ text: 'สรุปแล้ว' });
    await test.ask('สรุปให้หน่อย', { ...group, mention: true });
    expect(lastUserMessage(0)).toContain('ข้อความที่สาม');
    expect(lastUserMessage(0)).not.toContain('ข้อความที่สอง');
  });

  it('leaves the quoted message out when the space turned quotes off', async () => {
    const quoted = { state: 'known' as const, author: 'Somchai', byBot: false, text: 'ประชุมย้ายไปวันศุกร์', attachments: [] };
    fake.script({ text: 'ตอบพร้อมข้อความอ้างอิง' }, { text: 'ตอบโดยไม่มีข้อความอ้างอิง' });
    await test.send({ ...(await consoleMessage({ text: 'จริงไหม', userId: 'member' })), quoted });
    await test.ask('/settings quotes off');
    await test.send({ ...(await consoleMessage({ text: 'จริงไหม', userId: 'member' })), quoted });
    expect(lastUserMessage(0)).toContain('ประชุมย้ายไปวันศุกร์');
    expect(lastUserMessage(1)).not.toContain('ประชุมย้ายไปวันศุกร์');
  });
});
