import path from 'node:path';
import type { Message } from 'telegraf/types';
import { BotApiError, badRequest } from './api-error.js';
import { captionText } from './formatted-text.js';
import type { MethodHandler } from './method-context.js';
import { newBotMessage, storeSent } from './outgoing-message.js';
import { isUploadedFile, type Params, type UploadedFile } from './params.js';
import type { FakeTelegramState, StoredFile } from './state.js';

// sendPhoto and sendDocument: a multipart upload (or the file_id of a stored file), a caption of at most 1024
// characters, and the size limits of the cloud Bot API (photos 10 MB, other files 50 MB).

const megabyte = 1024 * 1024;
const mimeTypes: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

interface Input {
  file: StoredFile;
  name: string;
}

function fileInput(params: Params, field: 'photo' | 'document', state: FakeTelegramState, limitBytes: number): Input {
  const value = params[field];
  if (isUploadedFile(value)) return upload(value, field, state, limitBytes);
  if (typeof value === 'string' && value !== '') {
    const known = state.files.get(value);
    if (!known) throw badRequest('wrong file identifier/HTTP URL specified');
    return { file: known, name: path.basename(known.path) };
  }
  throw badRequest(`there is no ${field} in the request`);
}

function upload(value: UploadedFile, field: 'photo' | 'document', state: FakeTelegramState, limitBytes: number): Input {
  if (value.bytes.length === 0) throw badRequest('file must be non-empty');
  if (value.bytes.length > limitBytes) throw new BotApiError({ error_code: 413, description: 'Request Entity Too Large' });
  const extension = field === 'photo' ? '.jpg' : path.extname(value.name);
  return { file: state.storeUpload(value.bytes, field === 'photo' ? 'photos' : 'documents', extension), name: value.name };
}

function withCaption(params: Params): Record<string, unknown> {
  const caption = captionText(params);
  if (!caption) return {};
  return caption.entities.length > 0 ? { caption: caption.text, caption_entities: caption.entities } : { caption: caption.text };
}

export const mediaMethods: Record<string, MethodHandler> = {
  sendPhoto: (params, { state }) => {
    const captionFields = withCaption(params);
    const { file } = fileInput(params, 'photo', state, 10 * megabyte);
    const { base } = newBotMessage(params, state);
    // Telegram stores several scaled copies; the fake reports the upload itself as the one, largest size.
    const photo = [{ file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size, width: 1280, height: 960 }];
    return storeSent({ ...base, photo, ...captionFields } as unknown as Message, state);
  },

  sendDocument: (params, { state }) => {
    const captionFields = withCaption(params);
    const { file, name } = fileInput(params, 'document', state, 50 * megabyte);
    const { base } = newBotMessage(params, state);
    const mimeType = mimeTypes[path.extname(name).toLowerCase()];
    const document = {
      file_name: name,
      ...(mimeType ? { mime_type: mimeType } : {}),
      file_id: file.fileId,
      file_unique_id: file.uniqueId,
      file_size: file.size,
    };
    return storeSent({ ...base, document, ...captionFields } as unknown as Message, state);
  },
};
