import type { TurnImage } from './types.js';

// The contract between image reading (src/images, src/ocr: sharp and tesseract) and those who use it: the router
// (checks each attached image), the agent (read_image, OCR text for models that cannot see, images for models
// that can) and knowledge-base ingest (images and scanned PDFs). Everything here is data: results, not throws.

/** Why an image was not accepted; each code has a Thai and an English message. */
export type ImageRefusal =
  | { code: 'not-an-image' }
  /** Decodable by nobody here (HEIC, TIFF, SVG…): `format` is what the bytes look like, for the message. */
  | { code: 'unsupported-format'; format: string }
  | { code: 'too-large'; bytes: number; limitBytes: number }
  /** Width × height over the limit: a decompression bomb or a huge scan. */
  | { code: 'too-many-pixels'; pixels: number; limitPixels: number }
  /** A long edge over `maxEdge` or a strip longer than `maxAspect` × its width: libvips holds whole rows. */
  | { code: 'bad-shape'; width: number; height: number; maxEdge: number; maxAspect: number }
  /** width × height × channels × bytes per sample × frames over the limit (16-bit colour, many frames). */
  | { code: 'too-much-data'; bytes: number; limitBytes: number }
  /** An ICC profile, text or XMP chunk that inflates beyond the limit (a metadata bomb). */
  | { code: 'metadata-too-large'; limitBytes: number }
  /** Decoding took longer than the time limit and was stopped. */
  | { code: 'too-slow'; seconds: number }
  | { code: 'corrupt' };

/** Why OCR produced no text. */
export type OcrFailure =
  /** tesseract (or one of the OCR_LANGS) is not installed: `/status` says so and the user is told plainly. */
  | { code: 'unavailable'; detail: string }
  | { code: 'timeout'; timeoutMs: number }
  | { code: 'failed'; detail: string }
  | { code: 'cancelled' }
  | { code: 'refused'; refusal: ImageRefusal };

export type OcrResult =
  | {
      ok: true;
      /** Thai quirks already fixed (sara am composed, noise lines dropped); may be '' when the image has no text. */
      text: string;
      /** Milliseconds of work (0 when it came from the cache). */
      ms: number;
      cached: boolean;
    }
  | { ok: false; failure: OcrFailure };

/**
 * Whether OCR works here. Unavailable: `reason` for the user's language (/status), `detail` in English for logs and
 * /readyz, `missingLanguages` the tesseract language codes to install.
 */
export type OcrStatus =
  | { available: true; engine: OcrEngineName; version: string; languages: string }
  | { available: false; reason: OcrUnavailableReason; detail: string; missingLanguages?: readonly string[] };

/** Which OCR reads: the system's tesseract program, or tesseract.js from npm where the program is not installed. */
export type OcrEngineName = 'tesseract' | 'tesseract.js';

export type OcrUnavailableReason = 'not-installed' | 'no-language' | 'missing-languages' | 'not-answering';

/** The image as a model with vision is shown it. */
export interface ModelImage {
  mime: 'image/jpeg' | 'image/png';
  bytes: Uint8Array;
}

/** What the agent is handed to read a turn's images (implemented in src/ocr, wired by the src/ root). */
export interface ImageReader {
  /** OCR of one image of this turn (cached by content hash). Never throws. */
  readText(image: TurnImage, signal?: AbortSignal): Promise<OcrResult>;
  /** Metadata gone (no GPS position leaves the box), long edge ≤ VISION_MAX_EDGE, re-encoded. Never throws. */
  forModel(image: TurnImage): Promise<ModelImage | { refusal: ImageRefusal }>;
  status(): Promise<OcrStatus>;
}
