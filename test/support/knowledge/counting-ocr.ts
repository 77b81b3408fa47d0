import type { DocumentOcr } from '../../../src/knowledge/index.js';
import { createEmbeddedTesseract } from '../../../src/ocr/embedded-tesseract.js';
import { createOcrEngine } from '../../../src/ocr/ocr-engine.js';
import { silentLogger } from '../../../src/shared/log.js';

// The real OCR engine (the tesseract program with tha+eng, else tesseract.js from npm) as ingest is handed it, counting the images it is asked to read.
// The page images are given to tesseract as they are: pdftoppm already makes clean grey PNGs.

export interface CountingOcr extends DocumentOcr {
  calls(): number;
}

/** `withoutEmbedded`: no tesseract.js either, as a server without any OCR. */
export function countingOcr(options: { executable?: string; withoutEmbedded?: boolean } = {}): CountingOcr {
  const engine = createOcrEngine({
    languages: 'tha+eng',
    timeoutMs: 60_000,
    concurrency: 1,
    prepare: (bytes) => Promise.resolve({ ok: true, png: bytes }),
    log: silentLogger(),
    ...(options.withoutEmbedded ? {} : { embedded: createEmbeddedTesseract({ languages: 'tha+eng' }) }),
    ...(options.executable ? { executable: options.executable } : {}),
  });
  let calls = 0;
  return {
    read(bytes, signal) {
      calls += 1;
      return engine.read(bytes, signal);
    },
    calls: () => calls,
  };
}
