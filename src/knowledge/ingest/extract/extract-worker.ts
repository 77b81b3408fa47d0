import { parentPort, workerData } from 'node:worker_threads';
import { parseDocument, type ParseRequest } from './parse-document.js';

// The extraction worker's entry: one document in (workerData), one ParsedDocument out, then the thread ends.
// Its heap is capped by the resourceLimits it was started with: running out of memory ends this thread only.

const request = workerData as ParseRequest;
parentPort?.postMessage(await parseDocument(request));
