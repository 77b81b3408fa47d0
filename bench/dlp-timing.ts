import { scanForCredentials } from '../src/dlp/scan.js';
import type { Sample } from '../test/support/dlp-corpus/index.js';

// Time per scanForCredentials call on 4 KB and 100 KB messages: clean Thai prose, and the same prose with a
// credential near the end (the scanner cannot stop early). Several different messages per case, cycled, so no
// single input's luck decides a percentile.

export interface Timing {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  runs: number;
  characters: number;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

export const round = (value: number) => Math.round(value * 1000) / 1000;

/** Messages of `size` characters of Thai prose, each starting at a different paragraph. */
export function thaiMessages(paragraphs: readonly string[], size: number, count: number): string[] {
  return Array.from({ length: count }, (_, offset) => {
    let text = '';
    for (let index = offset * 7; text.length < size; index++) text += `${paragraphs[index % paragraphs.length] ?? ''}\n\n`;
    return text.slice(0, size);
  });
}

/** The same messages with a credential sentence (from the corpus' plain Thai positives) at 90% of their length. */
export function withTokenNearEnd(messages: readonly string[], positives: readonly Sample[]): string[] {
  return messages.map((message, index) => {
    const sentence = positives[(index * 37) % positives.length]?.text ?? '';
    const at = Math.floor(message.length * 0.9);
    return `${message.slice(0, at)} ${sentence} ${message.slice(at)}`.slice(0, message.length + sentence.length + 2);
  });
}

export function timeScans(
  messages: readonly string[],
  runs: number,
  scan: (text: string) => { found: boolean } = scanForCredentials,
): Timing & { blocked: number } {
  let blocked = 0;
  for (let warm = 0; warm < Math.min(100, runs); warm++) scan(messages[warm % messages.length] ?? '');
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const message = messages[run % messages.length] ?? '';
    const started = performance.now();
    const result = scan(message);
    samples.push(performance.now() - started);
    if (result.found) blocked++;
  }
  return {
    p50Ms: round(percentile(samples, 0.5)),
    p99Ms: round(percentile(samples, 0.99)),
    maxMs: round(Math.max(...samples)),
    runs,
    characters: Math.round(messages.reduce((sum, message) => sum + message.length, 0) / Math.max(1, messages.length)),
    blocked,
  };
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base64Alphabet = `${alphabet}+/`;
const thaiLine = 'ระบบจะตรวจข้อความทุกบรรทัดก่อนส่งออก เพื่อไม่ให้รหัสลับหรือโทเคนหลุดออกไปกับคำตอบ ทั้งในกลุ่มและแชทส่วนตัว';

/**
 * The worst case the issue names: a message of `size` characters made of the lines the normalization forms work
 * hardest on — runs of token-like words one character short of a token (`ghp_` + 35), letters split by dots,
 * spaces and hyphens, `+` concatenations and backticks, 76-character base64 lines — between lines of Thai prose.
 * Deterministic (a fixed linear congruential sequence), and meant to hold no credential.
 */
export function worstCaseMessage(size: number): string {
  let state = 0x2545f491;
  const next = (range: number) => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return (state >>> 8) % range;
  };
  const run = (length: number, characters = alphabet) => Array.from({ length }, () => characters[next(characters.length)]).join('');
  const lines = [
    () => `${Array.from({ length: 4 }, () => `ghp_${run(35)}`).join(' ')} ครับ`,
    () => run(24).split('').join('.'),
    () => run(24).split('').join(' '),
    () => Array.from({ length: 8 }, () => run(5)).join('-'),
    () => Array.from({ length: 4 }, () => `"${run(12)}"`).join(' + '),
    () => `\`${run(20)}\` \`${run(20)}\``,
    () => run(76, base64Alphabet),
    () => thaiLine,
  ];
  const parts: string[] = [];
  let length = 0;
  for (let index = 0; length < size; index++) {
    const line = (lines[index % lines.length] ?? (() => ''))();
    parts.push(line);
    length += line.length + 1;
  }
  return parts.join('\n').slice(0, size);
}
