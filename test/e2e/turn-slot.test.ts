import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformAdapter, Responder } from '../../src/shared/channel.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { inboundMessage } from '../support/inbound-message.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// TURN_CONCURRENCY bounds the turns, not the sends: with one slot, a conversation whose answer is stuck on a
// platform's rate limit does not hold up another conversation's turn; its own next message still waits for it.

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  fake = test = undefined;
});

/** A platform whose sends to `stuckConversation` wait until released; the others go through. */
function gatedAdapter(stuckConversation: string): { adapter: PlatformAdapter; release(): void; sent: string[] } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const sent: string[] = [];
  const responder = (conversationKey: string): Responder => ({
    send: async (reply, journal) => {
      if (conversationKey === stuckConversation) await gate;
      await journal.sending(0);
      sent.push(`${conversationKey}: ${reply.text}`);
      await journal.sent(0);
    },
  });
  const adapter: PlatformAdapter = {
    platform: 'discord',
    capabilities: { maxTextChars: 2000, maxMessagesPerReply: 10, markup: 'markdown', typingIndicator: false, canEdit: false, sendsFiles: false },
    start: async () => ({}),
    stop: async () => undefined,
    responderFor: (message) => responder(message.conversationKey),
    download: () => Promise.reject(new Error('no attachments here')),
  };
  return { adapter, release: () => release(), sent };
}

describe('the turn slot (TURN_CONCURRENCY=1)', () => {
  it('is free while an answer waits to be sent: the next conversation’s turn runs meanwhile', async () => {
    fake = await startFakeModelServer({ modelId: 'test-model' });
    const { adapter, release, sent } = gatedAdapter('discord:stuck');
    test = createTestApp({ modelUrl: fake.url, environment: { TURN_CONCURRENCY: '1', MODEL_TOOLS: 'off', MODEL_VISION: 'off' }, adapters: [adapter] });
    const secondAsked = new Promise<void>((resolve) => fake?.script({ text: 'คำตอบที่ติดอยู่' }, { text: 'คำตอบห้องอื่น', expect: () => resolve() }));
    await test.app.inbound.resume();
    const base = { platform: 'discord' as const, chatKind: 'direct' as const };
    await test.app.inbound.accept(inboundMessage({ ...base, conversationKey: 'discord:stuck', spaceKey: 'discord:stuck', messageId: 'a1', text: 'ถามก่อน' }));
    await test.app.inbound.accept(inboundMessage({ ...base, conversationKey: 'discord:other', spaceKey: 'discord:other', messageId: 'b1', text: 'ถามทีหลัง' }));
    // Resolves only if the second turn ran while the first answer was still stuck.
    await secondAsked;
    release();
    await test.app.inbound.idle();
    expect(sent.sort()).toEqual(['discord:other: คำตอบห้องอื่น', 'discord:stuck: คำตอบที่ติดอยู่']);
  });
});
