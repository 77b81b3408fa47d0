import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleMessage, createConsoleAdapter, type ConsoleAdapter } from '../../../adapters/console/index.js';
import { fitLiveBlock } from '../../../adapters/console/live-block.js';
import { memoryJournal } from '../../../src/pipeline/reply-journal.js';
import { testInboundHandler } from '../../support/inbound-handler.js';

// The console's streamed answer: nothing on a pipe (the reply alone, as before); on a terminal, the growing answer
// drawn above the status line, then rubbed out and replaced by the final reply.

function screen() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  const waiters: { text: string; from: number; resolve: (at: number) => void }[] = [];
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
    for (const waiter of [...waiters]) {
      const at = written.indexOf(waiter.text, waiter.from);
      if (at < 0) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(at);
    }
  });
  /** Where `text` appears at or after `from`, once it has. */
  const appeared = (text: string, from = 0) =>
    new Promise<number>((resolve) => {
      const at = written.indexOf(text, from);
      if (at >= 0) resolve(at);
      else waiters.push({ text, from, resolve });
    });
  return { input, output, written: () => written, appeared };
}

const adapters: ConsoleAdapter[] = [];
afterEach(async () => {
  for (const adapter of adapters.splice(0)) await adapter.stop();
});

async function started(terminal: boolean) {
  const shown = screen();
  const adapter = createConsoleAdapter({ userId: 'owner', language: 'en', input: shown.input, output: shown.output, terminal });
  adapters.push(adapter);
  await adapter.start(testInboundHandler());
  const responder = adapter.responderFor(await consoleMessage({ text: 'hi', attachmentPaths: [], userId: 'owner' }));
  return { shown, responder };
}

describe('console live answer', () => {
  it('streams nothing on a pipe: the responder has no live answer', async () => {
    const { responder } = await started(false);
    expect(responder.live).toBeUndefined();
  });

  it('on a terminal, draws the growing answer in place, then replaces it with the final reply', async () => {
    const { shown, responder } = await started(true);
    const live = responder.live?.({ remember: () => Promise.resolve() });
    if (!live) throw new Error('a terminal console has a live answer');
    live.show('Gold is');
    const first = await shown.appeared('Gold is');
    live.show('Gold is up today');
    const second = await shown.appeared('Gold is up today', first);
    // The first preview (a blank line and one line: two rows) was rubbed out before the second was drawn.
    expect(shown.written().slice(first, second)).toContain('\u001b[2A');
    await live.end();
    await responder.send({ text: 'Gold is up today, by 1%.', files: [] }, memoryJournal());
    const final = await shown.appeared('Gold is up today, by 1%.', second);
    const between = shown.written().slice(second, final);
    expect(between).toContain('\u001b[2A');
    expect(between).toContain('\u001b[0J');
    // Nothing is drawn again after the reply: the preview is gone for good.
    expect(shown.written().slice(final)).not.toContain('Gold is up today\n');
  });
});

describe('fitLiveBlock', () => {
  it('counts wrapped rows and keeps only the newest lines that fit the screen', () => {
    expect(fitLiveBlock('\nสวัสดี\n', 80, 22)).toEqual({ text: '\nสวัสดี\n', rows: 2 });
    expect(fitLiveBlock(`${'a'.repeat(100)}\n`, 80, 22)?.rows).toBe(2);
    const many = Array.from({ length: 30 }, (_, index) => `line ${index}`).join('\n');
    const fitted = fitLiveBlock(many, 80, 5);
    expect(fitted).toEqual({ text: 'line 25\nline 26\nline 27\nline 28\nline 29\n', rows: 5 });
    expect(fitLiveBlock('\n\n', 80, 5)).toBeUndefined();
  });
});
