import type { IncomingMessage } from 'node:http';

// A webhook body read with a hard cap, as a value: the bytes, 'too-large' as soon as they pass the cap (a declared
// Content-Length over it is refused before anything is read), or 'aborted' when the sender or the server's body
// deadline cut it off. `onChunk` sees each chunk as it arrives, so a signature can be computed while the body
// streams in (LINE's HMAC). Past the cap the rest is left to the server, which discards it while the refusal goes
// out (src/http.ts lingers): destroying the request here would reset the connection before the 413 is read.

/** `bytes()` joins the chunks only when asked: a body refused by its signature is never copied whole. */
export type RequestBody = { kind: 'body'; length: number; bytes(): Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

export function readRequestBody(request: IncomingMessage, maxBytes: number, onChunk?: (chunk: Buffer) => void): Promise<RequestBody> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (result: RequestBody): void => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('close', onClose);
      request.off('error', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) return settle({ kind: 'too-large' });
      onChunk?.(chunk);
      chunks.push(chunk);
    };
    const onEnd = (): void => settle({ kind: 'body', length: total, bytes: () => Buffer.concat(chunks, total) });
    const onClose = (): void => settle({ kind: 'aborted' });
    request.on('data', onData);
    request.once('end', onEnd);
    request.once('close', onClose);
    request.once('error', onClose);
    request.resume();
  });
}
