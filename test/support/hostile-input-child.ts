import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { imageForModel } from '../../src/images/image-for-model.js';
import { imageForOcr } from '../../src/images/image-for-ocr.js';
import { startFakeModelServer } from '../fakes/model-server.js';
import { createTestApp } from './test-app.js';

// One hostile input through the real app in a process of its own (started by hostile-input-run.ts with the bot's
// heap flags): an image through the router (a vision model, so its copy is made) and then the OCR pre-processing
// and the vision copy directly; a document through /kb add. Prints one JSON line: the replies, what each image
// pipeline said, the milliseconds and the process's peak RSS (VmHWM).

const [mode, file] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(file ?? ''));
const started = performance.now();
const model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
const environment = z.record(z.string(), z.string()).parse(JSON.parse(process.env.HOSTILE_INPUT_ENVIRONMENT ?? '{}'));
const test = createTestApp({ modelUrl: model.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'on', OCR_TIMEOUT_MS: '60000', ...environment } });
const outcome = (result: { refusal: { code: string } } | object) => ('refusal' in result ? result.refusal.code : 'ok');
let report: Record<string, unknown>;
try {
  if (mode === 'image') {
    model.script({ text: 'ตอบจากข้อความ' });
    const handled = await test.ask('ดูรูปนี้หน่อย', { attachmentPaths: [file ?? ''] });
    const maxPixels = test.app.config.MAX_IMAGE_PIXELS;
    const vision = await imageForModel(bytes, { maxEdge: test.app.config.VISION_MAX_EDGE, maxPixels });
    const ocr = await imageForOcr(bytes, { maxPixels });
    report = { replies: handled.replies.map((reply) => reply.text), vision: outcome(vision), ocr: outcome(ocr) };
  } else {
    await test.ask('/kb create ร้าน');
    const handled = await test.ask('/kb add ร้าน', { attachmentPaths: [file ?? ''] });
    report = { replies: handled.replies.map((reply) => reply.text) };
  }
} finally {
  await test.close();
  await model.close();
}
const peak = /VmHWM:\s+(\d+) kB/u.exec(readFileSync('/proc/self/status', 'utf8'));
process.stdout.write(`${JSON.stringify({ ...report, ms: Math.round(performance.now() - started), peakMb: Math.round(Number(peak?.[1] ?? 0) / 1024) })}\n`);
