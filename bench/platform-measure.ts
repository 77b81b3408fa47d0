import { performance } from 'node:perf_hooks';
import type { FakeModelServer, RequestBody } from '../test/fakes/model-server.js';

// Shared by the platform bench's runs: options, percentiles, and the instant model answer that names the question it
// answers (so an answer on the wire can be matched to its message, and the fake's two moments can be timed).

export function option(argv: string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(argv[index + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}

export const round = (value: number) => Math.round(value * 1000) / 1000;

export function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

export interface Spread {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return {
    p50: round(percentile(values, 0.5)),
    p90: round(percentile(values, 0.9)),
    p99: round(percentile(values, 0.99)),
    // The largest value, negative ones too (a lead of one call over another); 0 for no values.
    max: round(values.length === 0 ? 0 : values.reduce((largest, value) => Math.max(largest, value), Number.NEGATIVE_INFINITY)),
  };
}

/** The tag a question carries and its answer repeats: `Q` and six digits. */
export const markerOf = (sequence: number) => `Q${String(sequence).padStart(6, '0')}`;
const markerPattern = /Q\d{6}/g;

/** Every marker in a text (a sent message, or the newest user message of a model request). */
export function markersIn(text: string): string[] {
  return text.slice(0, 10_000).match(markerPattern) ?? [];
}

export const questionText = (marker: string) => `ร้านเปิดวันอาทิตย์ไหมครับ รหัสคำถาม ${marker}`;
export const answerText = (marker: string) => `เปิดทุกวันรวมวันอาทิตย์ครับ ยินดีต้อนรับ (รหัสคำถาม ${marker})`;

/** The newest user message of a chat-completions body, as text (history holds the earlier questions). */
function newestUserText(body: RequestBody): string {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as { role?: unknown; content?: unknown } | undefined;
    if (message?.role === 'user') return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  }
  return '';
}

export interface ModelMoments {
  /** performance.now() when the fake had read the request body. */
  requestAt: number;
  /** performance.now() once the fake had written the whole streamed answer and ended the response. */
  answerAt: number;
}

/**
 * Scripts one instant, streamed answer per call: it repeats the marker of the question it was asked. The fake calls
 * `expect` right after reading the body and then writes the whole SSE stream and ends it in the same tick, so a
 * microtask queued in `expect` runs just after the end: those are the two moments.
 */
export function scriptEchoingAnswers(model: FakeModelServer, count: number, onAnswer: (marker: string, moments: ModelMoments) => void): void {
  for (let index = 0; index < count; index++) {
    const step = {
      text: '',
      expect: (body: RequestBody) => {
        const requestAt = performance.now();
        const marker = markersIn(newestUserText(body)).at(-1) ?? 'unmarked';
        step.text = answerText(marker);
        queueMicrotask(() => onAnswer(marker, { requestAt, answerAt: performance.now() }));
      },
    };
    model.script(step);
  }
}

/** Drops the fake model server's recordings (called as a run goes, so a long run does not grow the heap). */
export function dropModelRecordings(model: FakeModelServer): void {
  model.requests.splice(0);
  model.chatRequests.splice(0);
}
