import { describe, expect, it } from 'vitest';
import { maxGuardedChars, runAnswerGuards } from '../../../agent/guards/index.js';
import { createStreamMonitor } from '../../../agent/guards/stream-monitor.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

// The guards stay linear on a model that never stops (the 10,000 URLs and 920,000 characters). Work is
// asserted as a count, never as time: the characters the stream monitor reads, and the answer length the pipeline
// is given.

const tenThousandUrls = Array.from({ length: 10_000 }, (_, index) => `- ลิงก์ที่ ${index}: https://example.com/a/${index}?q=${index}`).join('\n');
const longProse = Array.from({ length: 3_000 }, (_, index) => `ข้อ ${index}: ราคาทองคำแท่งวันนี้ 41,050 บาท เพิ่มขึ้น 1.5% The price rose again today. `)
  .join('')
  .slice(0, 200_000);

/** Streams `text` into the monitor the way the accumulator builds it: appended deltas of 4 characters. */
function stream(text: string, growthBeforeLook?: number): { read: number; verdict: string } {
  const monitor = createStreamMonitor({ userAskedToRepeat: false, ...(growthBeforeLook === undefined ? {} : { growthBeforeLook }) });
  let visible = '';
  let verdict = 'continue';
  for (let at = 0; at < text.length && verdict === 'continue'; at += 4) {
    visible += text.slice(at, at + 4);
    verdict = monitor.inspect(visible).action;
  }
  return { read: monitor.charactersRead, verdict };
}

describe('guard work on a model that never stops', () => {
  it.each([
    ['10,000 URLs', tenThousandUrls],
    ['200,000 characters of prose', longProse],
  ])('the stream monitor reads a constant plus about 17 times the text, not its square (%s)', (_name, text) => {
    const { read, verdict } = stream(text);
    expect(verdict).toBe('continue');
    // Every delta of the first 4,096 characters (4,096² / 8 in all), then about 17 times the length.
    expect(read).toBeLessThanOrEqual(18 * text.length + 4_096 ** 2 / 8);
    // Looking after every delta (the old way) read the text once per delta: quadratic.
    const everyDelta = stream(text.slice(0, 20_000), 0);
    expect(everyDelta.read).toBeGreaterThan(20_000 * (20_000 / 4 / 2));
  });

  it('a repetition at the end of a long stream is still caught, at most 1/16 of the text late', () => {
    const text = `${longProse}${'ซ้ำ ๆ กัน '.repeat(40_000)}`;
    const monitor = createStreamMonitor({ userAskedToRepeat: false });
    let visible = '';
    let stoppedAt = -1;
    for (let at = 0; at < text.length; at += 4) {
      visible += text.slice(at, at + 4);
      if (monitor.inspect(visible).action === 'abort') {
        stoppedAt = visible.length;
        break;
      }
    }
    expect(stoppedAt).toBeGreaterThan(longProse.length);
    expect(stoppedAt).toBeLessThan(longProse.length * (1 + 1 / 16) + 1_000);
  });

  it('the whole pipeline reads at most maxGuardedChars of any answer, and says the answer was cut', () => {
    const huge = tenThousandUrls.repeat(2).replaceAll('- ', 'ดู ');
    expect(huge.length).toBeGreaterThan(maxGuardedChars * 4);
    const guarded = runAnswerGuards(turnRecord({ finalText: huge, toolCalls: [toolCall({ name: 'web_search', result: 'ราคาทอง 41,050 บาท' })] }), {
      secrets: [],
    });
    expect(guarded.answer.length).toBeLessThanOrEqual(maxGuardedChars);
    expect(guarded.events).toContainEqual(expect.objectContaining({ guard: 'output-limit' }));
    expect(guarded.text).toContain('(คำตอบนี้ยาวหรือใช้เวลานานเกินกำหนด จึงถูกตัดไว้เพียงเท่านี้)');
  });

  it.each([
    ['10,000 URLs', tenThousandUrls],
    ['200,000 characters of prose', longProse],
  ])('the whole pipeline on %s: every URL no tool gave removed, output no longer than the input', (_name, text) => {
    const guarded = runAnswerGuards(turnRecord({ finalText: text }), { secrets: [] });
    // Marking unconfirmed figures adds a few characters per figure: linear in the input.
    expect(guarded.answer.length).toBeLessThanOrEqual(2 * text.length);
    expect(guarded.answer).not.toContain('https://example.com');
  });
});
