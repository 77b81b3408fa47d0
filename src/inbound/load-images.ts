import { describeError } from '../shared/describe-error.js';
import { say, type Localized } from '../shared/i18n.js';
import { detectImageType } from '../shared/image-type.js';
import type { Attachment, Language, Reply, TurnImage } from '../shared/types.js';

const notAnImageNotice: Localized = {
  th: 'ไฟล์ "{name}" ไม่ใช่รูปภาพที่อ่านได้ (รองรับ PNG, JPEG, GIF, WebP, BMP) จะตอบจากข้อความอย่างเดียว',
  en: 'The file "{name}" is not an image I can read (PNG, JPEG, GIF, WebP, BMP); answering from the text only.',
};
const imageFailedNotice: Localized = {
  th: 'อ่านรูปภาพ "{name}" ไม่ได้ ({problem}) จะตอบจากข้อความอย่างเดียว',
  en: 'Could not read the image "{name}" ({problem}); answering from the text only.',
};

/** At most this many images go to the model per message. */
const maxImagesPerMessage = 4;

export interface ImageLoading {
  /** Already bound to the message's platform and the size cap. */
  download(attachment: Attachment): Promise<Uint8Array>;
  maxBytes: number;
  language: Language;
  /** Tells the user about an image that was left out. */
  send(reply: Reply): Promise<void>;
}

/** The message's images for the model; one that is too large, unreadable or not an image is skipped with a notice. */
export async function loadImages(attachments: readonly Attachment[], loading: ImageLoading): Promise<TurnImage[]> {
  const images: TurnImage[] = [];
  for (const attachment of attachments.filter((item) => item.kind === 'image').slice(0, maxImagesPerMessage)) {
    try {
      if (attachment.size > loading.maxBytes) throw new Error(`> ${loading.maxBytes} bytes`);
      const bytes = await loading.download(attachment);
      // Trust the bytes, not the declared type: a renamed PDF must not reach the model as an image.
      const mime = detectImageType(bytes);
      if (!mime) {
        await loading.send({ text: say(notAnImageNotice, loading.language, { name: attachment.name }), files: [] });
        continue;
      }
      images.push({ name: attachment.name, mime, bytes });
    } catch (error) {
      const problem = describeError(error);
      await loading.send({ text: say(imageFailedNotice, loading.language, { name: attachment.name, problem }), files: [] });
    }
  }
  return images;
}
