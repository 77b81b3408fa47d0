import { pick, type Localized } from '../../src/shared/i18n.js';
import type { Language, TurnStep } from '../../src/shared/types.js';
import { statusText } from '../../src/shared/step-labels.js';

// The running turn's status line. Live (a terminal): redrawn in place every second with the elapsed time. Not
// live (a pipe, a test): one line when the turn starts and one per step change, never a line per second.

export interface StatusSurface {
  showStatus(text: string): void;
  clearStatus(): void;
}

export interface TurnStatusOptions {
  surface: StatusSurface;
  language: Language;
  live: boolean;
  /** Milliseconds; a test's clock. */
  now?: () => number;
}

const cancelling: Localized = { th: 'กำลังยกเลิก… (กด Ctrl-C อีกครั้งเพื่อออก)', en: 'Cancelling… (Ctrl-C again quits)' };

export class TurnStatus {
  private step: TurnStep = { kind: 'model' };
  private stepShown: string | undefined;
  private textShown: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private cancelled = false;
  private readonly now: () => number;
  private readonly startedMs: number;

  constructor(private readonly options: TurnStatusOptions) {
    this.now = options.now ?? (() => performance.now());
    this.startedMs = this.now();
  }

  start(): void {
    this.show();
    if (!this.options.live) return;
    this.timer = setInterval(() => this.show(), 1000);
    // A status line never keeps the process alive.
    this.timer.unref();
  }

  stepped(step: TurnStep): void {
    this.step = step;
    this.show();
  }

  /** Ctrl-C was pressed: the turn is stopping (a tool that ignores the abort may take a moment). */
  cancelling(): void {
    this.cancelled = true;
    this.write(pick(cancelling, this.options.language));
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.options.surface.clearStatus();
  }

  private show(): void {
    if (this.cancelled) return;
    const key = this.step.kind === 'model' ? 'model' : `tool:${this.step.tool}`;
    // Not live: only a new step is worth a line.
    if (!this.options.live && key === this.stepShown) return;
    this.stepShown = key;
    const seconds = Math.floor((this.now() - this.startedMs) / 1000);
    this.write(statusText(this.step, seconds, this.options.language));
  }

  private write(text: string): void {
    if (text === this.textShown) return;
    this.textShown = text;
    this.options.surface.showStatus(text);
  }
}
