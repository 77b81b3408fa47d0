import type http from 'node:http';
import busboy from 'busboy';

// The admin page's uploads (issue 32): a multipart/form-data body read as it streams, with every count bounded
// before anything is kept. A failure is a value, never a throw. The caller answers it like src/http-webhook.ts's
// refusals: a 413 without `connection: close`, so Node discards the rest of the body while the answer goes out and
// lingerAfterAnswer closes the socket after lingerMs. (`connection: close` makes Node close as soon as the answer is
// written; over an unread upload that is a reset, and a client still sending often loses the answer.)

export interface UploadLimits {
  /** Per file (the bot passes MAX_ATTACHMENT_BYTES, the limit of /kb add); a file of exactly this size is accepted. */
  maxFileBytes: number;
  maxFiles: number;
  /** Small form fields (CSRF token, title…). */
  maxFields: number;
  /** Each field's value, in bytes. */
  maxFieldBytes: number;
  /** The whole body as it arrives (boundaries and part headers included). */
  maxTotalBytes: number;
  /** The whole body must have arrived this long after the call. */
  timeoutMs: number;
}

export interface UploadedFile {
  /** The form field the file came in. */
  field: string;
  /** The sender's file name made safe to show and store (see uploadFileName). */
  name: string;
  /** The part's Content-Type as the sender declared it (untrusted; text/plain when none). */
  mime: string;
  bytes: Uint8Array;
}

export type UploadFailureCode = 'not-multipart' | 'bad-form' | 'too-large' | 'too-many-files' | 'too-many-fields' | 'too-slow' | 'aborted' | 'forbidden';

/**
 * A field the body must carry before any file, with a value `accept` takes (a plain form's CSRF token): a file part
 * before it, or a value refused, is `forbidden`, and no byte of a file is kept.
 */
export interface RequiredFirstField {
  name: string;
  accept(value: string): boolean;
}

export interface UploadFailure {
  code: UploadFailureCode;
  /** too-large: the limit passed (maxFileBytes, maxFieldBytes or maxTotalBytes). */
  limitBytes?: number;
  /** too-large: the file being read when the limit passed. */
  fileName?: string;
  /** too-large: the field whose value passed maxFieldBytes. */
  fieldName?: string;
}

/** `fields` has no prototype: a field named `__proto__` is just a field. */
export type UploadResult = { ok: true; fields: Record<string, string>; files: UploadedFile[] } | { ok: false; failure: UploadFailure };

const maxNameCodePoints = 200;
/** A long name keeps an extension up to this long (".pdf", ".docx"): the caller picks the parser by it. */
const maxKeptExtension = 16;

/**
 * Reads the request's multipart/form-data body. Not multipart, or a declared Content-Length over maxTotalBytes:
 * answered at once, nothing read. Otherwise every byte is counted as it arrives, and at the first limit passed the
 * collected bytes are dropped, the parser stopped, and the rest of the body is left flowing to nowhere: discarded as
 * it arrives, never parsed nor kept.
 * Duplicate field names are `bad-form`: a form that sends its CSRF token twice is not guessed at.
 */
export function readMultipartUpload(request: http.IncomingMessage, limits: UploadLimits, firstField?: RequiredFirstField): Promise<UploadResult> {
  if (mediaType(request.headers['content-type']) !== 'multipart/form-data') return failed({ code: 'not-multipart' });
  // Node has refused a malformed or repeated Content-Length already; without one (chunked) it is NaN.
  if (Number(request.headers['content-length']) > limits.maxTotalBytes) return failed({ code: 'too-large', limitBytes: limits.maxTotalBytes });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: request.headers,
      // Browsers send file names as raw UTF-8 (busboy's default reads them as latin1).
      defParamCharset: 'utf8',
      // One more than ours: busboy reports a file or value of exactly its limit as cut off.
      limits: { fileSize: limits.maxFileBytes + 1, files: limits.maxFiles, fields: limits.maxFields, fieldSize: limits.maxFieldBytes + 1 },
    });
  } catch {
    // No boundary, or a Content-Type busboy cannot parse.
    return failed({ code: 'bad-form' });
  }
  return readParts(request, parser, limits, firstField);
}

function failed(failure: UploadFailure): Promise<UploadResult> {
  return Promise.resolve({ ok: false, failure });
}

/** `type/subtype` of a Content-Type, lower-cased; '' without one. */
function mediaType(header: string | undefined): string {
  if (header === undefined) return '';
  const semicolon = header.indexOf(';');
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
}

/** The file being read: busboy hands out one part at a time. */
interface FileInProgress {
  name: string;
  chunks: Buffer[];
  size: number;
}

function readParts(
  request: http.IncomingMessage,
  parser: busboy.Busboy,
  limits: UploadLimits,
  firstField: RequiredFirstField | undefined,
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const fields = Object.create(null) as Record<string, string>;
    const files: UploadedFile[] = [];
    let reading: FileInProgress | undefined;
    let receivedBytes = 0;
    let settled = false;

    const timer = setTimeout(() => fail({ code: 'too-slow' }), limits.timeoutMs);
    timer.unref();

    const settle = (result: UploadResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.off('data', onData);
      request.off('end', onEnd);
      if (!result.ok) {
        // Dropped now, not when the request is collected.
        files.length = 0;
        if (reading) reading.chunks.length = 0;
        reading = undefined;
        // Its own events fail the upload while busboy is still inside write(): destroyed then, it would touch the
        // file stream it has just released (a TypeError thrown out of write()).
        process.nextTick(() => parser.destroy());
        // Paused for busboy's back-pressure, the rest would sit in the socket until the linger closed it.
        if (!request.destroyed) request.resume();
      }
      resolve(result);
    };
    const fail = (failure: UploadFailure): void => settle({ ok: false, failure });

    parser.on('file', (field, stream, info) => {
      // busboy destroys an unfinished file stream with an error when the form is cut off.
      stream.on('error', () => undefined);
      if (settled || typeof field !== 'string') {
        stream.resume();
        return fail({ code: 'bad-form' });
      }
      if (firstField && !Object.hasOwn(fields, firstField.name)) {
        stream.resume();
        return fail({ code: 'forbidden' });
      }
      const file: FileInProgress = { name: uploadFileName(info.filename), chunks: [], size: 0 };
      reading = file;
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        file.chunks.push(chunk);
        file.size += chunk.length;
      });
      // busboy itself reads on past the limit, skipping the part: the upload fails here instead.
      stream.once('limit', () => fail({ code: 'too-large', limitBytes: limits.maxFileBytes, fileName: file.name }));
      stream.once('end', () => {
        if (reading === file) reading = undefined;
        if (settled || stream.truncated === true) return;
        files.push({ field, name: file.name, mime: info.mimeType, bytes: Buffer.concat(file.chunks, file.size) });
        file.chunks = [];
      });
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail({ code: 'too-large', limitBytes: limits.maxFieldBytes, fieldName: name });
      // busboy passes a part without a name as `undefined`.
      if (typeof name !== 'string' || Object.hasOwn(fields, name)) return fail({ code: 'bad-form' });
      if (firstField?.name === name && !firstField.accept(value)) return fail({ code: 'forbidden' });
      if (!settled) fields[name] = value;
    });
    parser.on('filesLimit', () => fail({ code: 'too-many-files' }));
    parser.on('fieldsLimit', () => fail({ code: 'too-many-fields' }));
    // A malformed part header, or the body ended before the closing boundary; also the destroy above.
    parser.on('error', () => fail({ code: 'bad-form' }));
    // Only after every file stream has ended. A required field never sent (a form without files) is refused too.
    parser.on('finish', () =>
      settle(firstField && !Object.hasOwn(fields, firstField.name) ? { ok: false, failure: { code: 'forbidden' } } : { ok: true, fields, files }),
    );
    parser.on('drain', () => {
      if (!settled) request.resume();
    });

    const onData = (chunk: Buffer): void => {
      receivedBytes += chunk.length;
      if (receivedBytes > limits.maxTotalBytes) {
        return fail({ code: 'too-large', limitBytes: limits.maxTotalBytes, ...(reading ? { fileName: reading.name } : {}) });
      }
      try {
        if (!parser.write(chunk) && !settled) request.pause();
      } catch {
        fail({ code: 'bad-form' });
      }
    };
    const onEnd = (): void => {
      try {
        parser.end();
      } catch {
        fail({ code: 'bad-form' });
      }
    };
    request.on('data', onData);
    request.once('end', onEnd);
    // Kept after settling: a request has no 'error' event without a listener, and a later one must not throw.
    request.on('error', () => fail({ code: 'aborted' }));
    request.once('close', () => {
      if (!request.complete) fail({ code: 'aborted' });
    });
  });
}

/**
 * A sender's file name made safe to show and store: the last path segment (after / or \), without control
 * characters (C0, DEL, C1), bidirectional overrides (which make "fdp.exe" look like "exe.pdf") or lone surrogates,
 * trimmed, at most 200 code points (a long name keeps a short extension); 'upload' when nothing is left.
 */
export function uploadFileName(raw: string | undefined): string {
  const text = raw ?? '';
  const lastSeparator = Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\'));
  let kept = '';
  for (const char of text.slice(lastSeparator + 1)) {
    if (!unwantedInName(char.codePointAt(0) ?? 0)) kept += char;
  }
  kept = kept.trim();
  if (kept === '' || kept === '.' || kept === '..') return 'upload';
  const codePoints = Array.from(kept);
  if (codePoints.length <= maxNameCodePoints) return kept;
  const dot = codePoints.lastIndexOf('.');
  const extension = dot > 0 && codePoints.length - dot <= maxKeptExtension ? codePoints.slice(dot) : [];
  return [...codePoints.slice(0, maxNameCodePoints - extension.length), ...extension].join('');
}

function unwantedInName(code: number): boolean {
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  // Bidirectional marks, embeddings, overrides and isolates.
  if (code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return true;
  // for…of yields a valid pair as one code point: a surrogate here stands alone.
  return code >= 0xd800 && code <= 0xdfff;
}
