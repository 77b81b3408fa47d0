import { parseDocument } from './parse-document.js';
import type { WorkerRequest } from './parse-in-worker.js';

// The extraction worker's entry (a process of its own, parse-in-worker.ts): one document (or one PDF page to
// render) in over IPC, one answer out, then it ends. Its heap is capped by the flags it was started with: running
// out of memory ends this process only.

process.once('message', (request: WorkerRequest) => {
  const work = request.type === 'pdf-page' ? import('./pdf-page-image.js').then(({ pdfPageImage }) => pdfPageImage(request)) : parseDocument(request);
  void work.then((result) => process.send?.(result, () => process.exit(0)));
});
