import { open } from 'node:fs/promises';
import type { Telegram } from 'telegraf';
import type { Attachment } from '../../src/shared/types.js';
import { readCapped } from '../common/read-capped.js';
import { telegramErrorText } from './error-text.js';

// The bytes of a Telegram file (docs/platforms.md §2.4): getFile, then the file URL, read with a hard cap. The URL holds
// the bot token (`/file/bot<token>/…`), so no error here ever carries it: messages name the file id and sizes only.

export class TelegramDownloadError extends Error {
  override readonly name = 'TelegramDownloadError';
}

function tooLarge(size: number, maxBytes: number): TelegramDownloadError {
  return new TelegramDownloadError(`telegram file is larger than ${maxBytes} bytes (${size})`);
}

/** A local Bot API server (`--local`) answers with an absolute path on its own disk. */
async function readLocalFile(path: string, maxBytes: number): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (size > maxBytes) throw tooLarge(size, maxBytes);
    const buffer = Buffer.alloc(size);
    await file.read(buffer, 0, size, 0);
    return buffer;
  } finally {
    await file.close();
  }
}

export async function downloadTelegramFile(
  telegram: Pick<Telegram, 'getFile' | 'getFileLink'>,
  attachment: Attachment,
  maxBytes: number,
  fetchImplementation: typeof fetch = fetch,
): Promise<Uint8Array> {
  if (attachment.reference.kind !== 'platform-file') throw new TelegramDownloadError(`not a Telegram file reference: ${attachment.reference.kind}`);
  if (attachment.size > maxBytes) throw tooLarge(attachment.size, maxBytes);
  const fileId = attachment.reference.id;
  let file: Awaited<ReturnType<Telegram['getFile']>>;
  try {
    file = await telegram.getFile(fileId);
  } catch (error) {
    throw new TelegramDownloadError(`telegram getFile for ${fileId} failed: ${telegramErrorText(error)}`);
  }
  if (file.file_size !== undefined && file.file_size > maxBytes) throw tooLarge(file.file_size, maxBytes);
  // Built locally from the getFile answer: no request, so nothing to fail with the URL in its message.
  const link = await telegram.getFileLink(file);
  if (link.protocol === 'file:') return readLocalFile(decodeURIComponent(link.pathname), maxBytes);
  let response: Response;
  try {
    response = await fetchImplementation(link, { redirect: 'error' });
  } catch {
    // The fetch error's cause names the URL.
    throw new TelegramDownloadError(`downloading telegram file ${fileId} failed: connection error`);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new TelegramDownloadError(`downloading telegram file ${fileId} failed: HTTP ${response.status}`);
  }
  return readCapped(response.body, maxBytes, (size) => tooLarge(size, maxBytes));
}
