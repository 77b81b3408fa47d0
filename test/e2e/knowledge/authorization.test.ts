import { afterEach, describe, expect, it } from 'vitest';
import { pick } from '../../../src/shared/i18n.js';
import { notAllowed } from '../../../src/commands/kb/access.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// /kb authorization through the router, as typed in the console: the console owner is a global admin, ADMIN_IDS
// adds others, everyone else gets the polite Thai refusal and changes nothing. Commands never reach the model.

const fixedNow = () => new Date('2026-11-29T04:00:00Z');
const conversation = 'team';
const conversationKey = `console:${conversation}`;
const refusalText = pick(notAllowed, 'th');

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

async function start(environment: Record<string, string> = {}): Promise<{ fake: FakeModelServer; test: TestApp }> {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true, modelId: 'test-model' });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'auto', MODEL_VISION: 'auto', ...environment }, now: fixedNow });
  return { fake, test };
}

async function replyTo(app: TestApp, text: string, userId?: string): Promise<string> {
  const handled = await app.ask(text, { conversation, ...(userId ? { userId } : {}) });
  expect(handled.admission.kind).toBe('command');
  return handled.replies[0]?.text ?? '';
}

describe('a plain user', () => {
  const commands = [
    '/kb',
    '/kb list',
    '/kb create ลับเฉพาะ',
    '/kb add คู่มือ ข้อความใหม่ที่ไม่ควรถูกเพิ่ม',
    '/kb docs คู่มือ',
    '/kb remove-doc คู่มือ 1',
    '/kb search คู่มือ ลาพักร้อน',
    '/kb bind คู่มือ',
    '/kb unbind คู่มือ',
    '/kb info คู่มือ',
    '/kb delete คู่มือ',
  ];

  it.each(commands)('%s → the polite Thai refusal, nothing changes', async (command) => {
    const { fake, test } = await start();
    expect(await replyTo(test, '/kb create คู่มือ')).toContain('สร้างคลังความรู้');
    expect(await replyTo(test, '/kb add คู่มือ พนักงานลาพักร้อนได้ปีละสิบสองวัน')).toContain('เพิ่มแล้ว');
    const knowledgeBase = (await test.app.knowledge.findKnowledgeBases('คู่มือ'))[0];
    if (!knowledgeBase) throw new Error('the knowledge base should exist');
    await replyTo(test, '/kb bind คู่มือ');

    const reply = await replyTo(test, command, 'bob');
    expect(reply).toBe(refusalText);
    expect(reply.startsWith('ขออภัยครับ')).toBe(true);
    // Nothing a refused command could have touched has changed.
    expect((await test.app.knowledge.listKnowledgeBases()).map((entry) => entry.name)).toEqual(['คู่มือ']);
    expect(await test.app.knowledge.documents(knowledgeBase.id)).toHaveLength(1);
    expect(await test.app.knowledge.boundKnowledgeBaseIds(conversationKey)).toEqual([knowledgeBase.id]);
    expect(fake.requests).toEqual([]);
  });

  it('cannot confirm a delete an admin started, with the exact confirmation command', async () => {
    const { test } = await start();
    await replyTo(test, '/kb create คู่มือ');
    const asked = await replyTo(test, '/kb delete คู่มือ');
    const confirmation = /`(\/kb delete [^`\n]{1,80})`/.exec(asked)?.[1];
    if (!confirmation) throw new Error(`no confirmation command in: ${asked}`);
    expect(await replyTo(test, confirmation, 'bob')).toBe(refusalText);
    expect(await test.app.knowledge.listKnowledgeBases()).toHaveLength(1);
    // The same command from the admin who asked does delete: bob's refusal was not a malformed command.
    expect(await replyTo(test, confirmation)).toBe('ลบคลังความรู้ **คู่มือ** แล้ว');
    expect(await test.app.knowledge.listKnowledgeBases()).toEqual([]);
  });
});

describe('global admins', () => {
  const cases: { name: string; environment: Record<string, string>; userId: string | undefined; allowed: boolean }[] = [
    { name: 'the console owner, without ADMIN_IDS', environment: {}, userId: undefined, allowed: true },
    { name: 'alice listed as console:alice', environment: { ADMIN_IDS: 'console:alice' }, userId: 'alice', allowed: true },
    { name: 'carol, second in the list', environment: { ADMIN_IDS: 'console:alice, console:carol' }, userId: 'carol', allowed: true },
    { name: 'alice without ADMIN_IDS', environment: {}, userId: 'alice', allowed: false },
    { name: 'bob while only alice is listed', environment: { ADMIN_IDS: 'console:alice' }, userId: 'bob', allowed: false },
    { name: 'listed for another platform only (discord:…)', environment: { ADMIN_IDS: 'discord:123456789012345678' }, userId: 'alice', allowed: false },
  ];

  it.each(cases.map((entry) => [`${entry.name}: ${entry.allowed ? 'may' : 'may not'} create and bind`, entry] as const))(
    '%s',
    async (_title, { environment, userId, allowed }) => {
      const { fake, test } = await start(environment);
      const created = await replyTo(test, '/kb create ทีมขาย ราคาและโปรโมชัน', userId);
      const bound = await replyTo(test, '/kb bind ทีมขาย', userId);
      const knowledgeBase = (await test.app.knowledge.findKnowledgeBases('ทีมขาย'))[0];
      if (allowed) {
        expect(created).toContain('สร้างคลังความรู้ **ทีมขาย**');
        expect(bound).toBe('ห้องนี้ใช้คลังความรู้ **ทีมขาย** แล้ว บอทจะตอบจากเอกสารในคลังนี้');
        expect(knowledgeBase?.createdBy).toBe(`console:${userId ?? 'owner'}`);
        expect(await test.app.knowledge.boundKnowledgeBaseIds(conversationKey)).toEqual([knowledgeBase?.id]);
      } else {
        expect([created, bound]).toEqual([refusalText, refusalText]);
        expect(knowledgeBase).toBeUndefined();
        expect(await test.app.knowledge.boundKnowledgeBaseIds(conversationKey)).toEqual([]);
      }
      expect(fake.requests).toEqual([]);
    },
  );
});
