import { isRecord } from '../../../src/shared/is-record.js';
import { badRequest } from './api-error.js';

// Readers for method parameters. JSON bodies carry typed values; multipart, urlencoded and query strings carry
// strings (objects as JSON text), so each reader accepts both, as the Bot API does.

export type Params = Record<string, unknown>;

/** A file part of a multipart body, as recorded in the call log. */
export interface UploadedFile {
  name: string;
  bytes: Buffer;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return isRecord(value) && typeof value.name === 'string' && Buffer.isBuffer(value.bytes);
}

export function optionalString(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw badRequest(`field "${name}" must be of type String`);
}

export function requiredString(params: Params, name: string): string {
  const value = optionalString(params, name);
  if (value === undefined) throw badRequest(`${name} is empty`);
  return value;
}

export function optionalInteger(params: Params, name: string): number | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number)) throw badRequest(`field "${name}" must be of type Integer`);
  return number;
}

export function optionalBoolean(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw badRequest(`field "${name}" must be of type Boolean`);
}

/** An object or array parameter, given as a value (JSON body) or as JSON text (form bodies). */
export function optionalJson(params: Params, name: string): unknown {
  const value = params[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw badRequest(`can't parse ${name} JSON object`);
  }
}

/** chat_id: an integer or a `@channelusername`. */
export function requiredChatId(params: Params): number | string {
  const value = params.chat_id;
  if (value === undefined || value === null || value === '') throw badRequest('chat_id is empty');
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.startsWith('@')) return value;
  const number = Number(value);
  if (!Number.isInteger(number)) throw badRequest('chat not found');
  return number;
}
