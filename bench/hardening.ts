import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseInWorker } from '../src/knowledge/ingest/extract/parse-in-worker.js';
import { hostileDocx, hostileVariedDocx, plainDocx } from '../test/support/hostile-documents.js';
import { blackPng, iccpBomb, manyFrameGif, manyFrameWebp, normalPhoto, ztxtBomb } from '../test/support/hostile-images.js';
import { runHostileInput } from '../test/support/hostile-input-run.js';

// `npm run bench -- hardening [--quick]`: each hostile input in a process of its own with the bot's heap flags,
// through the real router (images: then the vision copy and the OCR pre-processing; documents: /kb add), beside
// an ordinary phone photo and DOCX in the same run: peak RSS (VmHWM), wall time and what the user was told.
// Plus the cost of one extraction worker (started, a tiny document parsed, ended). Add an input: one entry below.

interface Entry {
  name: string;
  mode: 'image' | 'kb';
  fileName: string;
  make(): Promise<Uint8Array> | Uint8Array;
  /** Settings for the app in the child. */
  environment?: Record<string, string>;
  /** Also in --quick. */
  quick?: boolean;
}

const small = { width: 64, height: 64, bitDepth: 8, colour: 'rgb' } as const;

function entries(quick: boolean): Entry[] {
  const all: Entry[] = [
    {
      name: 'normal photo (12 MP JPEG; 2 MP in --quick)',
      mode: 'image',
      fileName: 'photo.jpg',
      make: () => (quick ? normalPhoto(1600, 1200) : normalPhoto()),
      quick: true,
    },
    {
      name: 'PNG 49,000,000 × 1, 16-bit RGBA',
      mode: 'image',
      fileName: 'strip.png',
      make: () => blackPng({ width: 49_000_000, height: 1, bitDepth: 16, colour: 'rgba' }),
      quick: true,
    },
    {
      name: 'PNG 1 × 20,000,000 grey',
      mode: 'image',
      fileName: 'tall.png',
      make: () => blackPng({ width: 1, height: 20_000_000, bitDepth: 8, colour: 'grey' }),
    },
    {
      name: 'PNG 7,000 × 7,000, 16-bit RGBA',
      mode: 'image',
      fileName: 'bomb.png',
      make: () => blackPng({ width: 7000, height: 7000, bitDepth: 16, colour: 'rgba' }),
    },
    { name: 'WebP 1,000 × 1,000 × 70 frames', mode: 'image', fileName: 'frames.webp', make: () => manyFrameWebp(1000, 1000, 70) },
    { name: 'GIF 1,000 × 1,000 × 70 frames', mode: 'image', fileName: 'frames.gif', make: () => manyFrameGif(1000, 1000, 70) },
    { name: 'PNG with a 400 MB iCCP', mode: 'image', fileName: 'icc.png', make: () => blackPng({ ...small, extra: [iccpBomb(400_000_000)] }) },
    { name: 'PNG with a 400 MB zTXt', mode: 'image', fileName: 'text.png', make: () => blackPng({ ...small, extra: [ztxtBomb(400_000_000)] }) },
    {
      name: 'normal DOCX',
      mode: 'kb',
      fileName: 'normal.docx',
      make: () => plainDocx(Array.from({ length: 200 }, (_, index) => `ย่อหน้าที่ ${index + 1}: นโยบายคืนสินค้าภายใน 30 วัน`)),
      quick: true,
    },
    { name: 'DOCX 3,000,000 runs (216 KB)', mode: 'kb', fileName: 'runs.docx', make: () => hostileDocx(3_000_000), quick: true },
    { name: 'DOCX 1,500,000 varied runs (3 MB)', mode: 'kb', fileName: 'varied.docx', make: () => hostileVariedDocx(1_500_000) },
  ];
  return all.filter((entry) => !quick || entry.quick);
}

async function workerStartupMs(runs: number): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const started = performance.now();
    await parseInWorker({ type: 'text', bytes: Buffer.from('สวัสดี'), maxCharacters: 100 });
    samples.push(performance.now() - started);
  }
  return Math.round(samples.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? 0);
}

export async function main(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-bench-hardening-'));
  try {
    const inputs = [];
    for (const entry of entries(quick)) {
      const bytes = await entry.make();
      const file = path.join(directory, entry.fileName);
      writeFileSync(file, bytes);
      const run = await runHostileInput(entry.mode, file, entry.environment);
      inputs.push({
        name: entry.name,
        bytes: bytes.length,
        ...(run.ok
          ? {
              alive: true,
              peakMb: run.report.peakMb,
              ms: run.report.ms,
              told: run.report.replies.at(entry.mode === 'kb' ? -1 : 0) ?? '',
              vision: run.report.vision,
              ocr: run.report.ocr,
            }
          : { alive: false, exitCode: run.exitCode, signal: run.signal }),
      });
    }
    const documentWorker = {
      medianMs: await workerStartupMs(quick ? 3 : 9),
      note: 'start a worker, parse a 6-character text, end it; under tsx (npm run bench), the built bot pays less',
    };
    process.stdout.write(`${JSON.stringify({ bench: 'hardening', quick, budgetMb: 600, inputs, documentWorker }, null, 2)}\n`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
