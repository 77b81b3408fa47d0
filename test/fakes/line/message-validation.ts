import { requestBodyErrors, type ErrorDetail } from './api-error.js';

// The checks LINE makes on the `messages` of a reply or push before sending anything: 1 to 5 message objects,
// a known type, and per type its required fields; text at most 5,000 characters (counted as JavaScript counts
// them, in UTF-16 code units) and never empty. Failures come back together as one 400 with a detail each.

const knownTypes = ['text', 'textV2', 'image', 'video', 'audio', 'location', 'sticker', 'template', 'imagemap', 'flex'];
const maxTextLength = 5000;

/** The message types LINE issues a quote token for when the bot sends them. */
export const quotableTypes = new Set(['text', 'textV2', 'sticker', 'image', 'video']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

const requiredFields: Record<string, string[]> = {
  image: ['originalContentUrl', 'previewImageUrl'],
  video: ['originalContentUrl', 'previewImageUrl'],
  audio: ['originalContentUrl', 'duration'],
  location: ['title', 'address', 'latitude', 'longitude'],
  sticker: ['packageId', 'stickerId'],
  template: ['altText', 'template'],
  imagemap: ['baseUrl', 'altText', 'baseSize', 'actions'],
  flex: ['altText', 'contents'],
};

function messageErrors(message: unknown, index: number): ErrorDetail[] {
  const at = `messages[${index}]`;
  if (!isRecord(message)) return [{ message: 'May not be empty', property: at }];
  const type = message.type;
  if (typeof type !== 'string' || !knownTypes.includes(type))
    return [{ message: `Must be one of the following values: [${knownTypes.join(', ')}]`, property: `${at}.type` }];
  const errors: ErrorDetail[] = [];
  if (type === 'text' || type === 'textV2') {
    const text = message.text;
    if (isBlank(text)) errors.push({ message: 'May not be empty', property: `${at}.text` });
    else if (typeof text !== 'string') errors.push({ message: 'Must be a string', property: `${at}.text` });
    else if (text.length > maxTextLength) errors.push({ message: `Length must be between 0 and ${maxTextLength}`, property: `${at}.text` });
  }
  for (const field of requiredFields[type] ?? []) {
    if (isBlank(message[field])) errors.push({ message: 'May not be empty', property: `${at}.${field}` });
  }
  return errors;
}

/** The message objects, or throws LINE's 400 listing every problem. `extra` are details of other fields. */
export function validMessages(body: Record<string, unknown>, extra: ErrorDetail[] = []): Record<string, unknown>[] {
  const messages = body.messages;
  const errors = [...extra];
  if (!Array.isArray(messages) || messages.length < 1 || messages.length > 5) {
    errors.push({ message: 'Size must be between 1 and 5', property: 'messages' });
  } else {
    messages.forEach((message, index) => errors.push(...messageErrors(message, index)));
  }
  if (errors.length > 0) throw requestBodyErrors(errors);
  return messages as Record<string, unknown>[];
}

export function requestRecord(body: unknown): Record<string, unknown> {
  return isRecord(body) ? body : {};
}
