import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { lingerAfterAnswer } from '../../src/http-webhook.js';
import { readMultipartUpload, type RequiredFirstField, type UploadFailure, type UploadLimits, type UploadResult } from '../../src/web/multipart-upload.js';

// A real node:http server on a loopback port whose one handler reads the body with readMultipartUpload and answers
// JSON the way the admin page's server should, like src/http-webhook.ts's refusals: a 413 leaves the connection
// open, so Node discards the rest of the body while the answer goes out and lingerAfterAnswer closes it after
// lingerMs. (With `connection: close` Node destroys the socket as soon as the answer is written; the unread upload
// makes that a reset, and a client still writing often loses the answer: 5 of 20 streamed uploads here.) A 408
// closes: a sender that slow has little in flight. Tests read each request's result in arrival order, bytes and all.

export const testLimits: UploadLimits = {
  maxFileBytes: 1000,
  maxFiles: 3,
  maxFields: 3,
  maxFieldBytes: 64,
  maxTotalBytes: 16_000,
  timeoutMs: 10_000,
};

/** One request, as soon as the handler has it; `result` once the body has been read (or refused). */
export interface ServedUpload {
  result: Promise<UploadResult>;
}

export interface UploadServer {
  port: number;
  url: string;
  /** The next request the handler gets (call it before sending: requests are handed out in arrival order). */
  nextRequest(): Promise<ServedUpload>;
  close(): Promise<void>;
}

export function statusOf(failure: UploadFailure): number {
  switch (failure.code) {
    case 'not-multipart':
      return 415;
    case 'bad-form':
      return 400;
    case 'forbidden':
      return 403;
    case 'too-large':
    case 'too-many-files':
    case 'too-many-fields':
      return 413;
    case 'too-slow':
      return 408;
    case 'aborted':
      return 499;
  }
}

/** What the client is told: sizes instead of bytes. */
function answerOf(result: UploadResult): unknown {
  if (!result.ok) return result;
  return { ok: true, fields: result.fields, files: result.files.map(({ field, name, mime, bytes }) => ({ field, name, mime, size: bytes.length })) };
}

export async function startUploadServer(limits: Partial<UploadLimits> = {}, lingerMs = 2_000, firstField?: RequiredFirstField): Promise<UploadServer> {
  const all: UploadLimits = { ...testLimits, ...limits };
  const arrived: ServedUpload[] = [];
  const waiting: ((upload: ServedUpload) => void)[] = [];

  const serve = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    response.once('finish', () => lingerAfterAnswer(request, lingerMs));
    response.on('error', () => undefined);
    const result = readMultipartUpload(request, all, firstField);
    const upload = { result };
    const waiter = waiting.shift();
    if (waiter) waiter(upload);
    else arrived.push(upload);
    const read = await result;
    // Nobody is left to answer.
    if (!read.ok && read.failure.code === 'aborted') return void response.destroy();
    const status = read.ok ? 200 : statusOf(read.failure);
    const close = status === 408 ? { connection: 'close' } : {};
    const body = Buffer.from(JSON.stringify(answerOf(read)));
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...close }).end(body);
  };
  const server = http.createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}/admin/upload`,
    nextRequest: () => {
      const ready = arrived.shift();
      return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** One part of a hand-built multipart body; `headers` replace the generated ones when given. */
export interface Part {
  name?: string;
  value?: string | Buffer;
  filename?: string;
  /** Sent as `filename*=UTF-8''…` (percent-encoded), as RFC 5987 asks. */
  filenameStar?: string;
  type?: string;
  headers?: string;
}

export function multipartBody(boundary: string, parts: readonly Part[], closing = `--${boundary}--\r\n`): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    let disposition = 'form-data';
    if (part.name !== undefined) disposition += `; name="${part.name}"`;
    if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
    if (part.filenameStar !== undefined) disposition += `; filename*=UTF-8''${encodeURIComponent(part.filenameStar)}`;
    const headers = part.headers ?? `Content-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}`;
    pieces.push(Buffer.from(`--${boundary}\r\n${headers}\r\n`), Buffer.from(part.value ?? ''), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(closing));
  return Buffer.concat(pieces);
}

/** A request head for a multipart POST; `length` undefined means chunked. */
export function uploadHead(contentType: string | undefined, length: number | undefined): string {
  const type = contentType === undefined ? '' : `Content-Type: ${contentType}\r\n`;
  const framing = length === undefined ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${length}\r\n`;
  return `POST /admin/upload HTTP/1.1\r\nHost: x\r\n${type}${framing}\r\n`;
}

/** `bytes` as one HTTP/1.1 chunk. */
export function chunkOf(bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
}
