import { describeOcrFailure } from '../src/shared/image-reading-text.js';
import type { OcrResult } from '../src/shared/image-reading.js';
import { say, type Localized } from '../src/shared/i18n.js';
import { neutralizeSourceMarkers } from '../src/shared/source-markers.js';
import type { Language } from '../src/shared/types.js';

// The OCR text of a turn's images as the model reads it, in the newest user message (never the system prompt: it
// changes per turn) or as read_image's result. The text is the user's own content, bounded and with source
// markers neutralized so a photographed "[source: …]" cannot pose as a retrieved passage.

/** A receipt or a page of a letter fits; a photographed book page is cut rather than filling the context. */
export const maxImageTextCharacters = 4000;

const strings = {
  heading: {
    th: '[ตัวหนังสือในรูปที่ผู้ใช้แนบมา อ่านด้วย OCR อาจมีตัวอักษรผิดบ้าง]',
    en: '[Text in the images the user attached, read by OCR; it may contain misread characters]',
  },
  image: { th: 'รูปที่ {number} ({name}):', en: 'Image {number} ({name}):' },
  noText: { th: '(ไม่พบตัวหนังสือในรูปนี้)', en: '(no text found in this image)' },
  failed: { th: '(อ่านไม่ได้: {reason})', en: '(could not be read: {reason})' },
  cut: { th: '…(ตัดส่วนที่เหลือ)', en: '…(the rest is cut)' },
} satisfies Record<string, Localized>;

/** One image's part: its number and name, then its text or why there is none. */
export function imageTextSection(number: number, name: string, result: OcrResult, language: Language): string {
  const heading = say(strings.image, language, { number, name: neutralizeSourceMarkers(name) });
  if (!result.ok) return `${heading}\n${say(strings.failed, language, { reason: describeOcrFailure(result.failure, language) })}`;
  const text = result.text.trim();
  if (!text) return `${heading}\n${say(strings.noText, language)}`;
  const characters = Array.from(text);
  const bounded = characters.length > maxImageTextCharacters ? characters.slice(0, maxImageTextCharacters).join('') + say(strings.cut, language) : text;
  return `${heading}\n${neutralizeSourceMarkers(bounded)}`;
}

/** The block placed after the question when the model gets the images' text up front. */
export function imageTextBlock(sections: readonly string[], language: Language): string {
  return [say(strings.heading, language), ...sections].join('\n\n');
}
