import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPlatformAdapters, PlatformStates, startAdapters, stopAdapters } from '../../src/platforms.js';
import type { HandledMessage } from '../../src/pipeline/router.js';
import type { InboundHandler, PlatformAdapter } from '../../src/shared/channel.js';
import type { Attachment, InboundMessage, Reply } from '../../src/shared/types.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { memoryLog } from '../support/memory-log.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// A platform adapter as the platform issues will write one, faked: it reports the bot's username when it starts,
// and the router then reads `/cmd@that_name` as ours and `/cmd@another_bot` as someone else's. It hands every
// message to the durable inbound queue and answers through `responderFor`.

interface FakeTelegram {
  adapter: PlatformAdapter;
  /** Delivers a group message as Telegram would; returns what the bot sent back and how the message was handled. */
  deliver(text: string, extra?: Partial<InboundMessage>): Promise<{ replies: Reply[]; handled: unknown }>;
  downloads: { id: string; maxBytes: number }[];
  stopped(): boolean;
}

function fakeTelegram(files: ReadonlyMap<string, Uint8Array>, settled: () => Promise<HandledMessage | undefined>): FakeTelegram {
  let handler: InboundHandler | undefined;
  let stopped = false;
  let nextId = 1;
  const downloads: { id: string; maxBytes: number }[] = [];
  const sent = new Map<string, Reply[]>();
  const adapter: PlatformAdapter = {
    platform: 'telegram',
    capabilities: { maxTextChars: 4096, maxMessagesPerReply: 10, markup: 'html', typingIndicator: true, canEdit: true, sendsFiles: false },
    start: async (given) => {
      handler = given;
      return { username: 'saeng_bot' };
    },
    stop: async () => {
      stopped = true;
    },
    responderFor: (message) => ({
      send: async (reply, journal) => {
        if (journal.isSent(0)) return;
        await journal.sending(0);
        sent.get(message.messageId)?.push(reply);
        await journal.sent(0);
      },
    }),
    download: async (attachment: Attachment, maxBytes: number) => {
      if (attachment.reference.kind !== 'platform-file') throw new Error('not a Telegram file');
      downloads.push({ id: attachment.reference.id, maxBytes });
      const bytes = files.get(attachment.reference.id);
      if (!bytes) throw new Error('file not found');
      return bytes;
    },
  };
  const deliver = async (text: string, extra: Partial<InboundMessage> = {}) => {
    if (!handler) throw new Error('not started');
    const replies: Reply[] = [];
    const message: InboundMessage = {
      platform: 'telegram',
      conversationKey: 'telegram:-100',
      spaceKey: 'telegram:-100',
      messageId: String(nextId++),
      chatKind: 'group',
      sender: { id: '42', name: 'Somchai', isPlatformAdmin: false },
      text,
      mentionsBot: false,
      repliesToBot: false,
      attachments: [],
      receivedAt: new Date(),
      ...extra,
    };
    sent.set(message.messageId, replies);
    expect(await handler.accept(message)).toBe('stored');
    const handled = await settled();
    return { replies, handled };
  };
  return { adapter, deliver, downloads, stopped: () => stopped };
}

let fake: FakeModelServer;
let test: TestApp;
let telegram: FakeTelegram;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'generic' });
  const handled: HandledMessage[] = [];
  const settled = async () => {
    await test.app.inbound.idle();
    return handled.pop();
  };
  telegram = fakeTelegram(new Map([['not-a-photo', new TextEncoder().encode('%PDF-1.7 renamed')]]), settled);
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off', MAX_ATTACHMENT_BYTES: '2048' },
    adapters: [telegram.adapter],
    observe: (message) => void handled.push(message),
  });
  await startAdapters([telegram.adapter], test.app);
  await test.app.inbound.resume();
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

describe('platform adapters', () => {
  it('reads /cmd@username with the username the adapter reported on start', async () => {
    const ours = await telegram.deliver('/help@Saeng_Bot');
    expect(ours.replies[0]?.text).toContain('/reset');
    const theirs = await telegram.deliver('/help@other_bot');
    expect(theirs).toMatchObject({ replies: [], handled: { admission: { kind: 'ignore', reason: 'command-for-another-bot' } } });
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('forgets the username when the adapter reports none (any @name is ours again)', async () => {
    test.app.identify('telegram', {});
    const { replies } = await telegram.deliver('/help@other_bot');
    expect(replies[0]?.text).toContain('/reset');
  });

  it('downloads attachments through the adapter that received them, capped at MAX_ATTACHMENT_BYTES', async () => {
    fake.script({ text: 'ตอบจากข้อความ' });
    const photo = (id: string, size: number): Attachment => ({
      kind: 'image',
      mime: 'image/jpeg',
      name: `${id}.jpg`,
      size,
      reference: { kind: 'platform-file', id },
    });
    const { replies } = await telegram.deliver('ดูรูปนี้หน่อย', { mentionsBot: true, attachments: [photo('not-a-photo', 16), photo('huge', 4096)] });
    expect(replies.map((reply) => reply.text)).toEqual([
      'ใช้รูป "not-a-photo.jpg" ไม่ได้: ยังไม่รองรับรูปแบบ PDF กรุณาส่งเป็น JPEG หรือ PNG (หรือแคปหน้าจอแล้วส่งแทน) จะตอบจากข้อความอย่างเดียว',
      'ใช้รูป "huge.jpg" ไม่ได้: รูปใหญ่เกินไป (4 KB เกินขีดจำกัด 2 KB) จะตอบจากข้อความอย่างเดียว',
      'ตอบจากข้อความ',
    ]);
    expect(telegram.downloads).toEqual([{ id: 'not-a-photo', maxBytes: 2048 }]);
  });

  it('stops every adapter', async () => {
    await stopAdapters([telegram.adapter], memoryLog().log);
    expect(telegram.stopped()).toBe(true);
  });

  it("names each platform's state for /healthz: running, failed to start, stopped", async () => {
    const states = new PlatformStates();
    const core = { inbound: test.app.inbound, identify: () => undefined };
    const broken: PlatformAdapter = { ...telegram.adapter, platform: 'discord', start: () => Promise.reject(new Error('401 Unauthorized')) };
    await startAdapters([telegram.adapter], core, states);
    expect(states.report()).toEqual({ telegram: 'running' });
    expect(states.allRunning()).toBe(true);
    await expect(startAdapters([broken], core, states)).rejects.toThrow('401 Unauthorized');
    expect(states.report()).toEqual({ telegram: 'running', discord: 'failed' });
    expect(states.allRunning()).toBe(false);
    await stopAdapters([telegram.adapter], memoryLog().log, states);
    expect(states.report()).toEqual({ telegram: 'stopped', discord: 'failed' });
  });

  it('builds an adapter for each platform whose credentials are set, and none for the others', () => {
    const { log, records } = memoryLog('warn');
    const all = loadConfig({
      MODEL_BASE_URL: 'http://127.0.0.1:9/v1',
      TELEGRAM_BOT_TOKEN: '123:abc',
      DISCORD_TOKEN: 'token',
      LINE_CHANNEL_SECRET: 'secret',
      LINE_CHANNEL_ACCESS_TOKEN: 'token',
    });
    expect(createPlatformAdapters(all, log).map((adapter) => adapter.platform)).toEqual(['discord', 'telegram', 'line']);
    const lineHalfSet = loadConfig({ MODEL_BASE_URL: 'http://127.0.0.1:9/v1', LINE_CHANNEL_SECRET: 'secret' });
    expect(createPlatformAdapters(lineHalfSet, log)).toEqual([]);
    expect(records.map((record) => record.msg)).toEqual([
      'LINE needs both LINE_CHANNEL_SECRET and LINE_CHANNEL_ACCESS_TOKEN: LINE stays off until both are set',
    ]);
  });
});
