import { scanForCredentials } from '../../src/dlp/scan.js';
import type { TurnRecord } from '../../src/shared/types.js';
import { previewAnswer } from '../guards/index.js';
import type { UnreadReason } from '../turn-images.js';
import { openingVerdict } from './opening.js';
import { releasePoint } from './release-point.js';

// The answer while the model writes it, as the user may see it (docs/architecture.md, "Streaming answers"). Each
// model step's text is looked at as it grows: once its opening settles the guards that would replace it whole, the
// part `releasePoint` allows goes through the same numbers and sources steps as the final answer and the DLP, and is
// shown only when it extends what was shown. A credential anywhere in the text, or markup, stops the step's preview:
// the final reply (the DLP notice, the guarded answer) replaces it. A step that turns into tool calls withdraws it.

export interface AnswerPreviewOptions {
  record: TurnRecord;
  /** The space chose record.language (TurnRequest.languageFixed): the opening waits for that language, as the step expects it. */
  languageFixed?: boolean;
  secrets: readonly string[];
  /** The turn's images the model has neither seen nor read, now (the vision note goes in front). */
  unreadImages: () => readonly UnreadReason[];
  /** The whole text that may be shown; '' withdraws it. */
  emit: (text: string) => void;
}

/**
 * Text is looked at again once it grew by this much (up to 4,096 characters, then by 1/16: linear overall); before
 * anything was shown, at every new character or two — the first words are the wait the user feels.
 */
const minGrowth = 8;
const minGrowthBeforeFirst = 2;
const flatGrowthUpTo = 4_096;

export class AnswerPreview {
  private shown = '';
  private stopped = false;
  private lookedAt = 0;

  constructor(private readonly options: AnswerPreviewOptions) {}

  /** A model step starts: its text is new. */
  startStep(): void {
    this.stopped = false;
    this.lookedAt = 0;
  }

  /** The step's visible text so far. */
  onText(text: string): void {
    const growth = this.shown === '' ? minGrowthBeforeFirst : minGrowth;
    if (this.stopped || text.length < this.lookedAt + Math.max(growth, this.lookedAt > flatGrowthUpTo ? this.lookedAt / 16 : 0)) return;
    this.lookedAt = text.length;
    const { record } = this.options;
    const opening = openingVerdict(text, record, this.options.languageFixed ?? false);
    if (opening === 'never') this.stopped = true;
    if (opening !== 'open') return;
    if (scanForCredentials(text, { secrets: this.options.secrets }).found) {
      this.stopped = true;
      return;
    }
    const released = text.slice(0, releasePoint(text));
    if (released === '') return;
    const preview = previewAnswer({ ...record, finalText: released }, { secrets: this.options.secrets, unreadImages: this.options.unreadImages() });
    if (preview === undefined) {
      this.stopped = true;
      return;
    }
    // Shown text is never taken back by a later look: only a preview that extends it goes out.
    if (preview.length <= this.shown.length || !preview.startsWith(this.shown)) return;
    this.shown = preview;
    this.options.emit(preview);
  }

  /** The step asked for tools (or was cut): what it showed was no answer. */
  withdraw(): void {
    this.stopped = true;
    if (this.shown === '') return;
    this.shown = '';
    this.options.emit('');
  }

  /** What the user has seen last; the final reply should start with it. */
  lastShown(): string {
    return this.shown;
  }
}
