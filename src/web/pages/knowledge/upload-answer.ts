import type http from 'node:http';
import { securityHeaders } from '../../admin-http.js';

// How an upload is answered over HTTP. admin.js asks for NDJSON (`accept: application/x-ndjson`): one JSON object a
// line, sent as the work goes (OCR progress, then each file's result), so the page can show "OCR หน้า 3/10" while
// a scan is read. A plain form gets a redirect or a page.

export const ndjsonType = 'application/x-ndjson';

/** What one NDJSON line says: a page being read by OCR, or a file's (or the whole request's) outcome. */
export type UploadLine =
  | { type: 'progress'; file: string; page: number; pages: number; text: string }
  | { type: 'result'; file?: string; ok: boolean; text: string; title?: string; document?: number; passages?: number };

export function wantsNdjson(request: http.IncomingMessage): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes(ndjsonType);
}

const ndjsonHeaders = {
  ...securityHeaders,
  'content-type': `${ndjsonType}; charset=utf-8`,
  // A reverse proxy (nginx) would otherwise hold the lines back until the end.
  'x-accel-buffering': 'no',
};

/** A streamed NDJSON answer: the head once, then lines as they come. */
export class NdjsonAnswer {
  constructor(private readonly response: http.ServerResponse) {
    response.writeHead(200, ndjsonHeaders);
  }

  line(line: UploadLine): void {
    // A browser that went away reads nothing more; the work it asked for still finishes.
    if (!this.response.destroyed && !this.response.writableEnded) this.response.write(`${JSON.stringify(line)}\n`);
  }

  end(): void {
    if (!this.response.writableEnded) this.response.end();
  }
}

/** After an answer given before the body was all read, how long the rest is read and discarded before the socket closes. */
const lingerMs = 2_000;

/**
 * An answer given before the body was read whole (a refusal; a body past a limit): `connection: close`, so the socket
 * serves nothing more. The answer goes out whole at once, but the response ends — and Node closes the socket — only
 * once the rest of the body has been discarded or `lingerMs` passed: closing over unread bytes would reset the
 * connection, and a client still sending could lose the answer with it.
 */
export function answerBeforeBody(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  answer: { status: number; contentType: string; body: string; headers?: Record<string, string> },
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = Buffer.from(answer.body, 'utf8');
  response.writeHead(answer.status, {
    ...securityHeaders,
    'content-type': answer.contentType,
    'content-length': String(body.length),
    connection: 'close',
    ...answer.headers,
  });
  response.write(body);
  if (request.complete || request.destroyed) {
    response.end();
    return;
  }
  const finish = () => {
    clearTimeout(timer);
    if (!response.writableEnded) response.end();
  };
  const timer = setTimeout(finish, lingerMs);
  timer.unref();
  request.once('end', finish);
  request.once('close', finish);
  // Flowing to nowhere: discarded as it arrives, never kept.
  request.resume();
}

/** The same as one NDJSON result line (admin.js reads it like any other answer). */
export function ndjsonBeforeBody(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  status: number,
  line: UploadLine,
  headers?: Record<string, string>,
): void {
  answerBeforeBody(request, response, {
    status,
    contentType: `${ndjsonType}; charset=utf-8`,
    body: `${JSON.stringify(line)}\n`,
    ...(headers ? { headers } : {}),
  });
}
