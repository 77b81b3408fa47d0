import type { Document, PhotoSize } from 'telegraf/types';
import type { Attachment } from '../../src/shared/types.js';

// Telegram photos and documents as attachment references (file ids, resolved through getFile when downloaded).

/**
 * The photo size to read: the largest whose declared `file_size` fits the cap (sizes come smallest to largest). A
 * size without `file_size` is taken only when no declared size fits — the smallest such, size 0 (unknown), since
 * the download enforces the real cap. When every size is declared and none fits, the smallest is returned with its
 * real size, so the core's size check tells the user the photo is too large instead of the photo vanishing.
 */
export function choosePhotoSize(sizes: readonly PhotoSize[], maxBytes: number): PhotoSize | undefined {
  const fitting = sizes.filter((size) => size.file_size !== undefined && size.file_size <= maxBytes);
  return fitting.at(-1) ?? sizes.find((size) => size.file_size === undefined) ?? sizes[0];
}

export function photoAttachment(sizes: readonly PhotoSize[], maxBytes: number): Attachment | undefined {
  const chosen = choosePhotoSize(sizes, maxBytes);
  if (!chosen) return undefined;
  return {
    kind: 'image',
    // Telegram re-encodes every photo it stores as JPEG.
    mime: 'image/jpeg',
    name: `photo-${chosen.file_unique_id}.jpg`,
    size: chosen.file_size ?? 0,
    reference: { kind: 'platform-file', id: chosen.file_id },
  };
}

/** A document; an image sent "as a file" (image/* mime type) is an image, at full quality. */
export function documentAttachment(document: Document): Attachment {
  const mime = document.mime_type ?? 'application/octet-stream';
  return {
    kind: mime.startsWith('image/') ? 'image' : 'file',
    mime,
    name: document.file_name ?? `document-${document.file_unique_id}`,
    size: document.file_size ?? 0,
    reference: { kind: 'platform-file', id: document.file_id },
  };
}
