import type { IncomingMessage } from 'node:http';
import { discordErrors } from './api-error.js';

// Request bodies as Discord accepts them: application/json, or multipart/form-data with `payload_json` and
// `files[n]` parts (what @discordjs/rest sends when a file is attached). Multipart goes through the platform's own
// parser (undici's Request.formData).

export interface UploadedFile {
  /** The form field, e.g. `files[0]`. */
  field: string;
  name: string;
  contentType: string;
  size: number;
  bytes: Buffer;
}

export interface ParsedBody {
  json: unknown;
  files: UploadedFile[];
}

export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw discordErrors.invalidJson();
  }
}

export async function parseBody(contentType: string, body: Buffer): Promise<ParsedBody> {
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (body.length === 0) return { json: undefined, files: [] };
  if (mediaType === 'application/json') return { json: parseJson(body.toString('utf8')), files: [] };
  if (mediaType !== 'multipart/form-data') return { json: undefined, files: [] };
  let form: FormData;
  try {
    form = await new Request('http://127.0.0.1/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  } catch {
    throw discordErrors.invalidJson();
  }
  let json: unknown;
  const files: UploadedFile[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') {
      if (field === 'payload_json') json = parseJson(value);
      continue;
    }
    const bytes = Buffer.from(await value.arrayBuffer());
    files.push({ field, name: value.name, contentType: value.type || 'application/octet-stream', size: bytes.length, bytes });
  }
  return { json, files };
}
