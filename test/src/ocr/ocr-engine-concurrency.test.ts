import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOcrEngine, type OcrEngine, type PreparedImage } from '../../../src/ocr/ocr-engine.js';
import type { OcrResult } from '../../../src/shared/image-reading.js';
import { silentLogger } from '../../../src/shared/log.js';
import { renderTextImage } from '../../support/text-images.js';
import { makeFifo, scriptFolder, shellQuote, type ScriptFolder } from './tesseract-scripts.js';
import { systemProgramPresent, tesseractProgram } from '../../support/system-programs.js';

// Each recognition runs a script that takes the next number (1, 2, …) and then waits at its own gate, a FIFO, until the
// test opens it: opening a FIFO for writing completes only once the script has opened it for reading, so the test
// knows a process is running without sleeping, and the script goes on to the real tesseract when released.

const asIs = async (bytes: Uint8Array): Promise<PreparedImage> => ({ ok: true, png: bytes });

let scripts: ScriptFolder;
let gated: string;
beforeEach(() => {
  scripts = scriptFolder();
  const starts = `${scripts.folder}/starts`;
  for (const number of [1, 2, 3]) makeFifo(`${scripts.folder}/gate${number}`);
  const folder = shellQuote(scripts.folder);
  // mkdir is atomic: two scripts started at once still take different numbers.
  const claim = `for n in 1 2 3; do if mkdir ${folder}/claim$n 2>/dev/null; then number=$n; break; fi; done`;
  gated = scripts.script('gated', [`echo start >> ${shellQuote(starts)}`, claim, `read line < ${folder}/gate$number`, 'exec tesseract "$@"'].join('\n'));
});
afterEach(() => scripts.remove());

function engine(concurrency: number): OcrEngine {
  return createOcrEngine({ languages: 'tha+eng', timeoutMs: 60_000, concurrency, executable: gated, prepare: asIs, log: silentLogger() });
}

/** Resolves when recognition number `number` is waiting at its gate; lets it go on to tesseract. */
async function release(number: number): Promise<void> {
  const gate = await open(`${scripts.folder}/gate${number}`, 'w');
  await gate.write('go\n');
  await gate.close();
}

function starts(): number {
  return readFileSync(`${scripts.folder}/starts`, 'utf8').split('\n').filter(Boolean).length;
}

describe.skipIf(!systemProgramPresent(tesseractProgram))('OCR engine concurrency', () => {
  it('with concurrency 1, starts the second tesseract only after the first has ended', async () => {
    const reader = engine(1);
    const events: string[] = [];
    const noted = (name: string) => (result: OcrResult) => {
      events.push(name);
      return result;
    };
    const first = reader.read(await renderTextImage({ text: 'หนึ่ง 1' })).then(noted('first done'));
    const second = reader.read(await renderTextImage({ text: 'สอง 2' })).then(noted('second done'));
    await release(1);
    events.push('first released');
    await release(2);
    events.push('second released');
    const results = await Promise.all([first, second]);
    expect(events).toEqual(['first released', 'first done', 'second released', 'second done']);
    expect(results.map((result) => result.ok)).toEqual([true, true]);
  });

  it('with concurrency 2, runs two at once', async () => {
    const reader = engine(2);
    const first = reader.read(await renderTextImage({ text: 'หนึ่ง 1' }));
    const second = reader.read(await renderTextImage({ text: 'สอง 2' }));
    // Both gates open only if both scripts are running before either is released.
    const gate1 = await open(`${scripts.folder}/gate1`, 'w');
    const gate2 = await open(`${scripts.folder}/gate2`, 'w');
    for (const gate of [gate1, gate2]) {
      await gate.write('go\n');
      await gate.close();
    }
    expect((await Promise.all([first, second])).map((result) => result.ok)).toEqual([true, true]);
  });

  it('lets a waiting read leave the line when its signal aborts', async () => {
    const reader = engine(1);
    const images = await Promise.all(['หนึ่ง 1', 'สอง 2', 'สาม 3'].map((text) => renderTextImage({ text })));
    const controller = new AbortController();
    const first = reader.read(images[0] ?? new Uint8Array());
    const waiting = reader.read(images[1] ?? new Uint8Array(), controller.signal);
    const third = reader.read(images[2] ?? new Uint8Array());
    // The first script is at its gate, so the other two reads are in the line behind it.
    const gate1 = await open(`${scripts.folder}/gate1`, 'w');
    controller.abort();
    expect(await waiting).toEqual({ ok: false, failure: { code: 'cancelled' } });
    await gate1.write('go\n');
    await gate1.close();
    await release(2);
    const results = await Promise.all([first, third]);
    expect(results.map((result) => result.ok)).toEqual([true, true]);
    // The aborted read never ran: the third read was the second process.
    expect(starts()).toBe(2);
  });
});
