import { afterEach, describe, expect, it, vi } from 'vitest';
import { statusText, toolLabel } from '../../../src/shared/step-labels.js';
import { TurnStatus, type StatusSurface } from '../../../adapters/console/status-line.js';

// The console's status line: what it says (Thai by default, English with BOT_LANGUAGE=en), and how often it is
// written — every second in place on a terminal, once per step change on a pipe — on a test clock.

afterEach(() => {
  vi.useRealTimers();
});

function recordingSurface(): StatusSurface & { shown: string[]; cleared: number } {
  const surface = {
    shown: [] as string[],
    cleared: 0,
    showStatus: (text: string) => void surface.shown.push(text),
    clearStatus: () => void (surface.cleared += 1),
  };
  return surface;
}

describe('status text', () => {
  it('names the step and the seconds since the turn began, in Thai or English', () => {
    expect(statusText({ kind: 'model' }, 0, 'th')).toBe('กำลังคิด…');
    expect(statusText({ kind: 'model' }, 4, 'th')).toBe('กำลังคิด… 4 วิ');
    expect(statusText({ kind: 'tool', tool: 'query_knowledge' }, 7, 'th')).toBe('กำลังคิด… ค้นฐานความรู้ (7 วิ)');
    expect(statusText({ kind: 'tool', tool: 'web_search' }, 3, 'en')).toBe('Thinking… searching the web (3 s)');
    expect(statusText({ kind: 'model' }, 12, 'en')).toBe('Thinking… 12 s');
    expect(toolLabel('read_image', 'th')).toBe('อ่านรูป');
    expect(toolLabel('fetch_url', 'en')).toBe('opening a web page');
  });

  it('shows an unknown tool by its name, bounded and without terminal control characters', () => {
    expect(toolLabel('lookup_hours', 'th')).toBe('lookup_hours');
    // A name the model made up cannot move the cursor or clear the screen, nor be a prototype key's label.
    expect(toolLabel('evil\x1b[2J\rname', 'th')).toBe('evil[2Jname');
    expect(toolLabel('constructor', 'en')).toBe('constructor');
    expect(toolLabel('x'.repeat(500), 'en')).toHaveLength(40);
  });
});

describe('TurnStatus', () => {
  it('on a terminal: rewritten each second with the elapsed time and the current step; stop clears it and ends the timer', () => {
    vi.useFakeTimers();
    let nowMs = 0;
    const surface = recordingSurface();
    const status = new TurnStatus({ surface, language: 'th', live: true, now: () => nowMs });
    status.start();
    for (let second = 1; second <= 4; second++) {
      nowMs = second * 1000;
      vi.advanceTimersByTime(1000);
    }
    nowMs = 7000;
    status.stepped({ kind: 'tool', tool: 'query_knowledge' });
    expect(surface.shown).toEqual(['กำลังคิด…', 'กำลังคิด… 1 วิ', 'กำลังคิด… 2 วิ', 'กำลังคิด… 3 วิ', 'กำลังคิด… 4 วิ', 'กำลังคิด… ค้นฐานความรู้ (7 วิ)']);
    status.stop();
    expect(surface.cleared).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(surface.shown).toHaveLength(6);
  });

  it('on a pipe: one line per step change, no timer at all', () => {
    vi.useFakeTimers();
    let nowMs = 0;
    const surface = recordingSurface();
    const status = new TurnStatus({ surface, language: 'en', live: false, now: () => nowMs });
    status.start();
    expect(vi.getTimerCount()).toBe(0);
    nowMs = 2500;
    status.stepped({ kind: 'model' });
    status.stepped({ kind: 'tool', tool: 'web_search' });
    status.stepped({ kind: 'tool', tool: 'web_search' });
    nowMs = 9000;
    status.stepped({ kind: 'model' });
    vi.advanceTimersByTime(60_000);
    expect(surface.shown).toEqual(['Thinking…', 'Thinking… searching the web (2 s)', 'Thinking… 9 s']);
  });

  it('after Ctrl-C says it is cancelling, and the steps that still come do not overwrite that', () => {
    const surface = recordingSurface();
    const status = new TurnStatus({ surface, language: 'th', live: false, now: () => 0 });
    status.start();
    status.cancelling();
    status.stepped({ kind: 'tool', tool: 'web_search' });
    expect(surface.shown).toEqual(['กำลังคิด…', 'กำลังยกเลิก… (กด Ctrl-C อีกครั้งเพื่อออก)']);
  });
});
