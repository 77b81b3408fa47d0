import type { IncomingMessage } from 'node:http';
import { isRecord } from '../../../src/shared/is-record.js';
import { badRequest } from './api-error.js';
import type { Params, UploadedFile } from './params.js';

// Request bodies the Bot API accepts: a query string, application/json, x-www-form-urlencoded and
// multipart/form-data (telegraf sends multipart whenever a file is attached). Multipart is parsed with the
// platform's own parser (undici's Request.formData), so boundaries and quoting follow the spec.

export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function parseParams(url: URL, contentType: string, body: Buffer): Promise<Params> {
  const params: Params = Object.fromEntries(url.searchParams);
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (body.length === 0) return params;
  if (mediaType === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8')) as unknown;
    } catch {
      throw badRequest("can't parse JSON object");
    }
    if (!isRecord(parsed)) throw badRequest('JSON object expected');
    return { ...params, ...parsed };
  }
  if (mediaType === 'application/x-www-form-urlencoded') {
    return { ...params, ...Object.fromEntries(new URLSearchParams(body.toString('utf8'))) };
  }
  if (mediaType === 'multipart/form-data') return { ...params, ...(await parseMultipart(contentType, body)) };
  return params;
}

async function parseMultipart(contentType: string, body: Buffer): Promise<Params> {
  const request = new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': contentType }, body });
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw badRequest("can't parse multipart/form-data request");
  }
  const params: Params = {};
  const files: Promise<void>[] = [];
  form.forEach((value, key) => {
    if (typeof value === 'string') {
      params[key] = value;
      return;
    }
    files.push(
      value.arrayBuffer().then((buffer) => {
        const file: UploadedFile = { name: value.name, bytes: Buffer.from(buffer) };
        params[key] = file;
      }),
    );
  });
  await Promise.all(files);
  return params;
}
