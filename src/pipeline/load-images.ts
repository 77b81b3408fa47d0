import { escapeMarkdown } from '../shared/markdown.js';
import { describeError } from '../shared/describe-error.js';
import { say, type Localized } from '../shared/i18n.js';
import { describeImageRefusal } from '../shared/image-reading-text.js';
import { inspectImage, type ImageLimits } from '../images/inspect-image.js';
import type { Attachment, Language, Reply, TurnImage } from '../shared/types.js';

const imageRefusedNotice: Localized = {
  th: 'ใช้รูป "{name}" ไม่ได้: {reason} จะตอบจากข้อความอย่างเดียว',
  en: 'Cannot use the image "{name}": {reason}. Answering from the text only.',
};
const imageFailedNotice: Localized = {
  th: 'ดาวน์โหลดรูป "{name}" ไม่สำเร็จ ({problem}) จะตอบจากข้อความอย่างเดียว',
  en: 'Could not download the image "{name}" ({problem}); answering from the text only.',
};

/** At most this many images are read per message. */
const maxImagesPerMessage = 4;

export interface ImageLoading {
  /** Already bound to the message's platform and the size cap. */
  download(attachment: Attachment): Promise<Uint8Array>;
  limits: ImageLimits;
  language: Language;
  /** Tells the user about an image that was left out. */
  send(reply: Reply): Promise<void>;
}

/**
 * The message's images for the turn. Each is checked from its bytes (not its declared type: a renamed PDF is not
 * an image) and its header (size, format, pixel count) before anything decodes it; one that fails is left out
 * with a notice that says why, and the turn goes on.
 */
export async function loadImages(attachments: readonly Attachment[], loading: ImageLoading): Promise<TurnImage[]> {
  const images: TurnImage[] = [];
  const refuse = (name: string, reason: string) =>
    loading.send({ text: say(imageRefusedNotice, loading.language, { name: escapeMarkdown(name), reason }), files: [] });
  for (const attachment of attachments.filter((item) => item.kind === 'image').slice(0, maxImagesPerMessage)) {
    if (attachment.size > loading.limits.maxBytes) {
      await refuse(attachment.name, describeImageRefusal({ code: 'too-large', bytes: attachment.size, limitBytes: loading.limits.maxBytes }, loading.language));
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await loading.download(attachment);
    } catch (error) {
      await loading.send({
        text: say(imageFailedNotice, loading.language, { name: escapeMarkdown(attachment.name), problem: escapeMarkdown(describeError(error)) }),
        files: [],
      });
      continue;
    }
    const inspected = await inspectImage(bytes, loading.limits);
    if (!inspected.ok) {
      await refuse(attachment.name, describeImageRefusal(inspected.refusal, loading.language));
      continue;
    }
    images.push({ name: attachment.name, mime: inspected.mime, bytes });
  }
  return images;
}
