import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../../src/shared/types.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { killAllChildren, readOutbox, startCrashChild } from '../support/crash-child.js';

// kill -9 at the moments that matter, then a restart on the same DATA_DIR: every acknowledged message is answered
// exactly once, no part goes out twice except the one in flight at the kill, and the model is not asked again for
// an answer that was already stored. The bot runs as a real child process; the model server is the fake, here.

let fake: FakeModelServer;
let dataDir: string;
let outbox: string;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'generic' });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-crash-'));
  outbox = path.join(dataDir, 'outbox.jsonl');
});
afterEach(async () => {
  await killAllChildren();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function environment(extra: Record<string, string> = {}): Record<string, string> {
  return {
    MODEL_BASE_URL: fake.url,
    MODEL_NAME: 'test-model',
    MODEL_TOOLS: 'off',
    MODEL_VISION: 'off',
    MODEL_RETRIES: '0',
    MODEL_TIMEOUT_MS: '60000',
    SEARCH_PROVIDER: 'none',
    DATA_DIR: path.join(dataDir, 'data'),
    HTTP_PORT: '0',
    LOG_LEVEL: 'info',
    USER_MESSAGES_PER_MINUTE: '10000',
    // Two quick messages of one user here are two questions, each answered once (bursts: test/src/pipeline/burst.test.ts).
    BURST_WINDOW_MS: '0',
    CRASH_TEST_OUTBOX: outbox,
    CRASH_TEST_SPLIT_CHARS: '40',
    ...extra,
  };
}

function message(messageId: string, text: string, conversation = 'telegram:100'): InboundMessage {
  return {
    platform: 'telegram',
    conversationKey: conversation,
    spaceKey: conversation,
    messageId,
    chatKind: 'direct',
    sender: { id: '42', name: 'Somchai', isPlatformAdmin: false },
    text,
    mentionsBot: false,
    repliesToBot: false,
    attachments: [],
    receivedAt: new Date(),
  };
}

/** Resolves when the fake model server has the next chat request (it then holds the stream open). */
function holdNextModelCall(): Promise<void> {
  return new Promise((resolve) => fake.script({ hang: true, expect: () => resolve() }));
}

const longAnswer = 'ส่วนแรกของคำตอบยาวที่ต้องแบ่งส่งเป็นสองข้อความ และนี่คือส่วนที่สองของคำตอบเดียวกัน';

describe('crash recovery (kill -9, restart on the same DATA_DIR)', () => {
  it('killed during the model call, with a second message still queued behind it: both answered once after the restart', async () => {
    const holding = holdNextModelCall();
    const first = await startCrashChild(environment());
    expect(await first.deliver(message('1', 'ร้านเปิดกี่โมง'))).toBe('stored');
    expect(await first.deliver(message('2', 'แล้วปิดกี่โมง'))).toBe('stored');
    await holding;
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(readOutbox(outbox)).toEqual([]);

    fake.script({ text: 'เปิดแปดโมง' }, { text: 'ปิดสองทุ่ม' });
    const second = await startCrashChild(environment());
    // The platform delivers the first message again (its acknowledgement was in doubt): answered once all the same.
    expect(await second.deliver(message('1', 'ร้านเปิดกี่โมง'))).toBe('duplicate');
    await second.event((event) => event.type === 'part-sent' && event.messageId === '2');
    expect(readOutbox(outbox)).toEqual([
      { messageId: '1', part: 0, text: 'เปิดแปดโมง' },
      { messageId: '2', part: 0, text: 'ปิดสองทุ่ม' },
    ]);
    expect(fake.chatRequests).toHaveLength(3);
    fake.assertAllConsumed();
    expect(await second.kill('SIGTERM')).toBe(0);
  }, 60_000);

  it('killed between the two parts of a split answer: only the second part is sent, and the model is not called again', async () => {
    fake.script({ text: longAnswer });
    const first = await startCrashChild(environment({ CRASH_TEST_HOLD: 'after-first-part' }));
    expect(await first.deliver(message('1', 'เล่ายาว ๆ หน่อย'))).toBe('stored');
    await first.event((event) => event.type === 'holding');
    await first.kill('SIGKILL');

    const second = await startCrashChild(environment());
    await second.event((event) => event.type === 'part-sent' && event.messageId === '1' && event.part === 1);
    const parts = readOutbox(outbox);
    expect(parts.map(({ messageId, part }) => `${messageId}:${part}`)).toEqual(['1:0', '1:1']);
    expect(parts.map((part) => part.text).join('')).toBe(longAnswer);
    // No script is left: a second model call would have been an unscripted call.
    expect(fake.chatRequests).toHaveLength(1);
    fake.assertAllConsumed();
    expect(await second.kill('SIGTERM')).toBe(0);
  }, 60_000);

  it('killed with a part in flight: that one part may go out twice, nothing else does', async () => {
    fake.script({ text: longAnswer });
    const first = await startCrashChild(environment({ CRASH_TEST_HOLD: 'in-flight' }));
    expect(await first.deliver(message('1', 'เล่ายาว ๆ หน่อย'))).toBe('stored');
    await first.event((event) => event.type === 'holding' && event.part === 0);
    await first.kill('SIGKILL');

    const second = await startCrashChild(environment());
    await second.event((event) => event.type === 'part-sent' && event.part === 1);
    expect(readOutbox(outbox).map(({ messageId, part }) => `${messageId}:${part}`)).toEqual(['1:0', '1:0', '1:1']);
    expect(fake.chatRequests).toHaveLength(1);
    fake.assertAllConsumed();
    expect(await second.kill('SIGTERM')).toBe(0);
  }, 60_000);

  it('SIGTERM during a turn that finishes within the grace period: the answer goes out, then exit 0', async () => {
    let exited: Promise<number | null> | undefined;
    // The signal arrives while the model call is under way.
    fake.script({ text: 'ทันก่อนปิด', expect: () => void (exited = first.kill('SIGTERM')) });
    const first = await startCrashChild(environment());
    expect(await first.deliver(message('1', 'คำถาม'))).toBe('stored');
    await first.event((event) => event.type === 'part-sent' && event.messageId === '1');
    expect(await exited).toBe(0);
    expect(readOutbox(outbox)).toEqual([{ messageId: '1', part: 0, text: 'ทันก่อนปิด' }]);
    expect(first.stderr()).toContain('shutting down');
    expect(first.stderr()).not.toContain('turns still running');

    // Nothing was left: the next start sends nothing and calls no model.
    const second = await startCrashChild(environment());
    expect(await second.deliver(message('1', 'คำถาม'))).toBe('duplicate');
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(readOutbox(outbox)).toHaveLength(1);
    expect(fake.chatRequests).toHaveLength(1);
  }, 60_000);

  it('SIGTERM with a turn still running: exits 0 after SHUTDOWN_GRACE_MS, and the next start answers the running and the queued message', async () => {
    const holding = holdNextModelCall();
    const first = await startCrashChild(environment({ SHUTDOWN_GRACE_MS: '200' }));
    expect(await first.deliver(message('1', 'คำถามแรก'))).toBe('stored');
    expect(await first.deliver(message('2', 'คำถามที่รอคิวอยู่'))).toBe('stored');
    await holding;
    expect(await first.kill('SIGTERM')).toBe(0);
    expect(first.stderr()).toContain('turns still running at the end of the grace period');

    expect(readOutbox(outbox)).toEqual([]);

    fake.script({ text: 'ตอบข้อแรก' }, { text: 'ตอบข้อสอง' });
    const second = await startCrashChild(environment());
    await second.event((event) => event.type === 'part-sent' && event.messageId === '2');
    expect(readOutbox(outbox)).toEqual([
      { messageId: '1', part: 0, text: 'ตอบข้อแรก' },
      { messageId: '2', part: 0, text: 'ตอบข้อสอง' },
    ]);
    fake.assertAllConsumed();
    expect(await second.kill('SIGTERM')).toBe(0);
  }, 60_000);
});
