import { parseDocument, type ParseRequest } from './parse-document.js';

// The extraction worker's entry (a process of its own, parse-in-worker.ts): one document in over IPC, one
// ParsedDocument out, then it ends. Its heap is capped by the flags it was started with: running out of memory
// ends this process only.

process.once('message', (request: ParseRequest) => {
  void parseDocument(request).then((result) => process.send?.(result, () => process.exit(0)));
});
