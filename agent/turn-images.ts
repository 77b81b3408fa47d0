import type { ImageReader, ModelImage, OcrFailure, OcrResult } from '../src/shared/image-reading.js';
import type { TurnImage } from '../src/shared/types.js';

// The images of one turn and how the model got at each: shown (vision), read (OCR text), or neither. Per turn
// only: nothing here outlives the turn, so an image never carries over to another question.

/** A vision model is shown at most this many images with the question (each costs hundreds of tokens on a small
 * context); the others it sees through read_image, one at a time. */
export const imagesShownWithQuestion = 2;

/** Why the model could neither see nor read an image. */
export type UnreadReason = 'ocr-unavailable' | 'no-text' | 'ocr-failed' | 'not-read';

interface ImageState {
  shown: boolean;
  text?: Promise<OcrResult>;
  settled?: OcrResult;
}

const unavailable: OcrResult = { ok: false, failure: { code: 'unavailable', detail: 'no image reader' } };

export class TurnImages {
  private readonly states: ImageState[];

  constructor(
    readonly images: readonly TurnImage[],
    private readonly reader: ImageReader | undefined,
    private readonly vision: boolean,
    private readonly signal: AbortSignal,
  ) {
    this.states = images.map(() => ({ shown: false }));
  }

  /** The images a vision model is shown with the question (none without vision). */
  async forQuestion(): Promise<ModelImage[]> {
    const shown: ModelImage[] = [];
    for (let index = 0; index < this.images.length && shown.length < imagesShownWithQuestion; index++) {
      const image = await this.show(index);
      if (image) shown.push(image);
    }
    return shown;
  }

  /** The image for the model's next call: undefined without vision, when already shown, or when it cannot be. */
  async show(index: number): Promise<ModelImage | undefined> {
    const image = this.images[index];
    const state = this.states[index];
    if (!image || !state || !this.vision || !this.reader || state.shown) return undefined;
    const prepared = await this.reader.forModel(image);
    if ('refusal' in prepared) return undefined;
    state.shown = true;
    return prepared;
  }

  wasShown(index: number): boolean {
    return this.states[index]?.shown === true;
  }

  /** OCR text of image `index`, read once per turn however often it is asked for. */
  readText(index: number): Promise<OcrResult> {
    const image = this.images[index];
    const state = this.states[index];
    if (!image || !state) return Promise.resolve({ ok: false, failure: { code: 'failed', detail: 'no such image' } });
    state.text ??= (this.reader ? this.reader.readText(image, this.signal) : Promise.resolve(unavailable)).then((result) => {
      state.settled = result;
      return result;
    });
    return state.text;
  }

  /** How many images had their text read (OCR) this turn: each is read at most once. */
  readCount(): number {
    return this.states.filter((state) => state.text !== undefined).length;
  }

  /** Images the model neither saw nor got text from, each with why (for the note under the answer). */
  unread(): UnreadReason[] {
    return this.states.flatMap((state): UnreadReason[] => {
      if (state.shown) return [];
      const result = state.settled;
      if (!result) return ['not-read'];
      if (result.ok) return result.text.trim() ? [] : ['no-text'];
      return [reasonOf(result.failure)];
    });
  }
}

function reasonOf(failure: OcrFailure): UnreadReason {
  return failure.code === 'unavailable' ? 'ocr-unavailable' : 'ocr-failed';
}
