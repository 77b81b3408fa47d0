import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { consoleMessage, createConsoleAdapter } from '../../../adapters/console/index.js';
import type { InboundHandler, PlatformAdapter } from '../../../src/shared/channel.js';
import { memoryJournal } from '../../../src/pipeline/reply-journal.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { testInboundHandler } from '../../support/inbound-handler.js';

// The console adapter through the contract every platform adapter keeps: start with a handler, a line in, the
// handler's reply out, stop.

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-console-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Collects what the chat writes, and resolves when a given text has appeared. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
    for (const waiter of waiters.filter((candidate) => written.includes(candidate.text))) waiter.resolve();
  });
  const appeared = (text: string) => new Promise<void>((resolve) => (written.includes(text) ? resolve() : waiters.push({ text, resolve })));
  return { input, output, written: () => written, appeared };
}

describe('console adapter', () => {
  it('start → a line in, stored → the reply out through its responder → stop', async () => {
    const screen = terminal();
    const adapter: PlatformAdapter = createConsoleAdapter({ userId: 'owner', language: 'en', input: screen.input, output: screen.output });
    const received: InboundMessage[] = [];
    const handler: InboundHandler = {
      ...testInboundHandler(),
      accept: async (message: InboundMessage) => {
        received.push(message);
        // The core answers later, from the stored message alone.
        const responder = adapter.responderFor(message);
        void responder
          .progress?.({ source: 'test', text: 'thinking' })
          .then(() => responder.send({ text: `**echo** ${message.text}`, files: [] }, memoryJournal()));
        return 'stored';
      },
    };
    expect(adapter.platform).toBe('console');
    expect(adapter.capabilities).toMatchObject({ markup: 'markdown', canEdit: false });
    await expect(adapter.start(handler)).resolves.toEqual({});
    screen.input.write('สวัสดี\n');
    // Rendered for the terminal: a pipe gets the words without Markdown marks or colour codes.
    await screen.appeared('\necho สวัสดี\n');
    expect(screen.written()).not.toContain('**');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ platform: 'console', chatKind: 'direct', text: 'สวัสดี', sender: { id: 'owner' }, attachments: [] });
    expect(screen.written()).toContain('Saeng is ready.');
    expect(screen.written()).toContain('… thinking\n');
    await adapter.stop();
    screen.input.write('after stop\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toHaveLength(1);
  });

  it('on a terminal: bold in ANSI, a quote marked │ so it cannot pass for the > prompt', async () => {
    const screen = terminal();
    const adapter = createConsoleAdapter({ userId: 'owner', language: 'th', input: screen.input, output: screen.output, terminal: true });
    const handler: InboundHandler = {
      ...testInboundHandler(),
      accept: async (message: InboundMessage) => {
        void adapter.responderFor(message).send({ text: '**เปิด** 9 โมง\n\n> ข้อความจากประกาศ', files: [] }, memoryJournal());
        return 'stored';
      },
    };
    await adapter.start(handler);
    screen.input.write('ร้านเปิดกี่โมง\n');
    await screen.appeared('ข้อความจากประกาศ');
    expect(screen.written()).toContain('\x1b[1mเปิด\x1b[22m 9 โมง');
    // eslint-disable-next-line no-control-regex -- the bar is dimmed: style codes may sit between it and the text
    expect(screen.written()).toMatch(/│ (?:\x1b\[[0-9;]{1,8}m){0,4}ข้อความจากประกาศ/);
    expect(screen.written()).not.toContain('> ข้อความจากประกาศ');
    await adapter.stop();
  });

  it('ends on /exit and says so through `closed`', async () => {
    const screen = terminal();
    const adapter = createConsoleAdapter({ userId: 'owner', language: 'th', input: screen.input, output: screen.output });
    await adapter.start(testInboundHandler());
    screen.input.write('/exit\n');
    await adapter.closed;
    expect(screen.written()).toContain('แสง (Saeng) พร้อมคุยแล้ว');
  });

  it('writes a reply once: a part the journal has as sent is not written again', async () => {
    const screen = terminal();
    const adapter = createConsoleAdapter({ userId: 'owner', language: 'en', input: screen.input, output: screen.output });
    const message = await consoleMessage({ text: 'x', userId: 'owner' });
    const journal = memoryJournal();
    await adapter.responderFor(message).send({ text: 'ตอบครั้งเดียว', files: [] }, journal);
    expect(journal.isSent(0)).toBe(true);
    await adapter.responderFor(message).send({ text: 'ตอบครั้งเดียว', files: [] }, journal);
    expect(screen.written().split('ตอบครั้งเดียว')).toHaveLength(2);
  });

  it('attaches a file as a path reference and downloads it size-capped', async () => {
    const file = path.join(directory, 'hours.md');
    writeFileSync(file, 'เปิด 08:00');
    const message = await consoleMessage({ text: 'x', attachmentPaths: [file], userId: 'owner' });
    const [attachment] = message.attachments;
    expect(attachment).toEqual({ kind: 'file', mime: 'text/markdown', name: 'hours.md', size: 18, reference: { kind: 'path', path: file } });
    if (!attachment) throw new Error('no attachment');
    const adapter = createConsoleAdapter({ userId: 'owner', language: 'en' });
    expect(new TextDecoder().decode(await adapter.download(attachment, 100))).toBe('เปิด 08:00');
    await expect(adapter.download(attachment, 5)).rejects.toThrow('file is larger than 5 bytes');
    // Another platform's reference is never read as a local file.
    await expect(adapter.download({ ...attachment, reference: { kind: 'url', url: 'https://cdn.example.com/a' } }, 100)).rejects.toThrow(
      'not a console attachment',
    );
  });
});
