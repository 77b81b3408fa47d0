import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messagingApi } from '@line/bot-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timerScheduler } from '../../../adapters/common/scheduler.js';
import { lineResponder } from '../../../adapters/line/responder.js';
import { memoryJournal } from '../../../src/pipeline/reply-journal.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, OutboundFile } from '../../../src/shared/types.js';
import { lineUserId, startFakeLine, type FakeLine } from '../../fakes/line/index.js';
import { lineDirectMessage } from './direct-message.js';

// Files on LINE, which bots cannot send: a short text file goes into the chat as text; another is described, with
// its signed download link when PUBLIC_BASE_URL made one.

const somchai = lineUserId('somchai');
let line: FakeLine;
let directory: string;

beforeEach(async () => {
  line = await startFakeLine();
  directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-line-files-'));
});
afterEach(async () => {
  await line.close();
  rmSync(directory, { recursive: true, force: true });
});

const message = (): InboundMessage => lineDirectMessage(line, somchai, 'เขียนไฟล์ให้หน่อย').message;

function file(name: string, content: string, mime: string, link?: OutboundFile['link']): OutboundFile {
  const filePath = path.join(directory, name);
  writeFileSync(filePath, content);
  return { name, path: filePath, mime, size: Buffer.byteLength(content), ...(link ? { link } : {}) };
}

describe('LINE responder and files', () => {
  it('sends a short text file inline, and describes a large one with its download link', async () => {
    const client = new messagingApi.MessagingApiClient({ channelAccessToken: line.channelAccessToken, baseURL: line.url });
    const responder = lineResponder(message(), somchai, {
      client,
      logger: silentLogger(),
      language: 'th',
      timeZone: 'Asia/Bangkok',
      sleep: async () => undefined,
      scheduler: timerScheduler,
      recordSent: async () => undefined,
      onQuotaExhausted: () => undefined,
    });
    const link = { url: 'https://bot.example.com/files?f=a&e=1&s=x', expiresAt: '2026-12-02T03:00:00.000Z' };
    await responder.send(
      { text: 'เขียนไฟล์แล้ว', files: [file('note.txt', 'บันทึกสั้น ๆ', 'text/plain'), file('report.pdf', '%PDF-1.7 …', 'application/pdf', link)] },
      memoryJournal(),
    );
    const texts = line.sentMessages(somchai).map((sent) => sent.text);
    expect(texts).toHaveLength(3);
    expect(texts[1]).toBe('📄 note.txt\n\nบันทึกสั้น ๆ');
    expect(texts[2]).toContain('ดาวน์โหลดได้ที่ https://bot.example.com/files?f=a&e=1&s=x');
    expect(line.callsOf('POST /v2/bot/message/reply')).toHaveLength(1);
  });
});
