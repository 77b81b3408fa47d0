import { characterErrorRate } from '../src/ocr/character-error-rate.js';
import { createEmbeddedTesseract } from '../src/ocr/embedded-tesseract.js';
import { createSystemTesseract, type OcrBackend } from '../src/ocr/ocr-backend.js';
import { cleanOcrText } from '../src/ocr/ocr-text-cleanup.js';
import { ocrConditions } from './ocr-conditions.js';
import type { OcrDocument } from './ocr-corpus.js';
import { prepareForOcr } from './ocr-prepare.js';
import { round } from './ocr-report.js';

// The two OCR engines the bot can use, side by side on the same prepared images, through the bot's own code
// (src/ocr/ocr-backend.ts, src/ocr/embedded-tesseract.ts): the tesseract program and tesseract.js from npm. One
// image at a time, each engine in turn, so neither competes with the other for the cores. The bot reads with the
// program when it is installed; these numbers are why.

export const comparedConditions: readonly string[] = ['clean', 'noise', 'phone-photo'];

type EngineName = 'tesseract' | 'tesseract.js';

interface EngineRead {
  language: 'th' | 'en';
  cer: number;
  ms: number;
}

export interface EngineSummary {
  available: boolean;
  detail?: string;
  images?: number;
  /** Mean CER of the prepared images, per language. */
  cer?: { th: number | null; en: number | null };
  /** Wall time of one read, the child process's start included (the pre-processing is not). */
  timeMs?: { mean: number; p50: number; p95: number };
  failures?: number;
}

const languages = 'tha+eng';
const timeoutMs = 120_000;

function summary(reads: readonly EngineRead[], failures: number): EngineSummary {
  const sorted = reads.map((read) => read.ms).sort((a, b) => a - b);
  const at = (share: number): number => Math.round(sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0);
  const meanCer = (language: 'th' | 'en'): number | null => {
    const values = reads.filter((read) => read.language === language).map((read) => read.cer);
    return values.length === 0 ? null : round(values.reduce((sum, value) => sum + value, 0) / values.length);
  };
  return {
    available: true,
    images: reads.length,
    cer: { th: meanCer('th'), en: meanCer('en') },
    timeMs: { mean: Math.round(sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length)), p50: at(0.5), p95: at(0.95) },
    failures,
  };
}

export async function compareEngines(
  documents: readonly OcrDocument[],
): Promise<{ conditions: readonly string[]; engines: Record<EngineName, EngineSummary> }> {
  const backends: Record<EngineName, OcrBackend> = {
    tesseract: createSystemTesseract({ languages }),
    'tesseract.js': createEmbeddedTesseract({ languages }),
  };
  const names = Object.keys(backends) as EngineName[];
  const reads: Record<EngineName, EngineRead[]> = { tesseract: [], 'tesseract.js': [] };
  const failures: Record<EngineName, number> = { tesseract: 0, 'tesseract.js': 0 };
  const statuses = Object.fromEntries(await Promise.all(names.map(async (name) => [name, await backends[name].status()] as const)));
  const conditions = ocrConditions.filter((condition) => comparedConditions.includes(condition.name));
  for (const condition of conditions) {
    for (const document of documents) {
      const prepared = await prepareForOcr(await condition.make(document));
      for (const name of names) {
        if (!statuses[name]?.available) continue;
        const started = performance.now();
        const outcome = await backends[name].recognize(prepared.png, timeoutMs);
        const ms = performance.now() - started;
        if (outcome.code !== 'ok') failures[name] += 1;
        else reads[name].push({ language: document.language, cer: characterErrorRate(document.text, cleanOcrText(outcome.stdout)), ms });
      }
    }
  }
  const engines = Object.fromEntries(
    names.map((name) => {
      const status = statuses[name];
      return [name, status?.available ? { ...summary(reads[name], failures[name]) } : { available: false, detail: status?.detail ?? 'unknown' }];
    }),
  ) as Record<EngineName, EngineSummary>;
  return { conditions: conditions.map((condition) => condition.name), engines };
}
