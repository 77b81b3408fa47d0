import type { ImageReader, ModelImage, ImageRefusal } from '../shared/image-reading.js';
import type { Logger } from '../shared/log.js';
import type { TurnImage } from '../shared/types.js';
import { imageForModel } from '../images/image-for-model.js';
import { imageForOcr } from '../images/image-for-ocr.js';
import { createEmbeddedTesseract } from './embedded-tesseract.js';
import { createOcrEngine, type OcrEngine, type OcrObservation } from './ocr-engine.js';

// The agent's ImageReader: tesseract (the program, else tesseract.js) through the OCR pre-processing for text, sharp for what a vision model is
// shown. One engine serves the agent and knowledge-base ingest, so the concurrency bound holds for both.

export interface ImageReadingSettings {
  languages: string;
  timeoutMs: number;
  concurrency: number;
  executable: string;
  visionMaxEdge: number;
  maxPixels: number;
}

export function createOcr(settings: ImageReadingSettings, log: Logger, observe?: (observation: OcrObservation) => void): OcrEngine {
  return createOcrEngine({
    ...(observe ? { observe } : {}),
    languages: settings.languages,
    timeoutMs: settings.timeoutMs,
    concurrency: settings.concurrency,
    executable: settings.executable,
    embedded: createEmbeddedTesseract({ languages: settings.languages }),
    prepare: (bytes) => imageForOcr(bytes, { maxPixels: settings.maxPixels }),
    log,
  });
}

export function createImageReader(engine: OcrEngine, settings: Pick<ImageReadingSettings, 'visionMaxEdge' | 'maxPixels'>): ImageReader {
  // The same image is shown once per turn at most; remembering the result per byte array saves a re-encode when
  // read_image shows it again after a refusal elsewhere. Held weakly: the turn's images go with the turn.
  const shown = new WeakMap<Uint8Array, Promise<ModelImage | { refusal: ImageRefusal }>>();
  return {
    readText: (image: TurnImage, signal?: AbortSignal) => engine.read(image.bytes, signal),
    forModel: (image: TurnImage) => {
      let prepared = shown.get(image.bytes);
      if (!prepared) {
        prepared = imageForModel(image.bytes, { maxEdge: settings.visionMaxEdge, maxPixels: settings.maxPixels });
        shown.set(image.bytes, prepared);
      }
      return prepared;
    },
    status: () => engine.status(),
  };
}
