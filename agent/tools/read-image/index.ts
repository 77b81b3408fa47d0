import { z } from 'zod';
import { say, type Localized } from '../../../src/shared/i18n.js';
import { imageTextSection } from '../../image-text-block.js';
import { defineTool, type AnyTool, type ToolResult } from '../tool.js';

// read_image: the OCR text (tesseract, OCR_LANGS) of an image attached to this turn, for exact figures and words.
// A vision model that has not yet seen the image is shown it on its next call. Per turn only.

const texts = {
  none: { th: 'ข้อความนี้ไม่มีรูปแนบมา', en: 'No image is attached to this message' },
  outOfRange: { th: 'ข้อความนี้มีรูปแนบ {count} รูป (เลข 1 ถึง {count})', en: 'This message has {count} image(s) attached (numbers 1 to {count})' },
  shownNext: { th: '(รูปนี้จะแสดงให้คุณดูในขั้นถัดไปด้วย)', en: '(you will also be shown this image in the next step)' },
} satisfies Record<string, Localized>;

const input = z.object({
  image: z.number().int().min(1).max(10).optional().describe('Which attached image: 1 is the first (the default).'),
});

export function createReadImageTool(): AnyTool {
  return defineTool({
    name: 'read_image',
    description: 'Read the text in an image the user attached to this message (OCR, Thai and English): exact figures, names and words.',
    input,
    async execute({ image }, context): Promise<ToolResult> {
      const { language, images } = context;
      if (images.length === 0) return { ok: false, content: say(texts.none, language) };
      const index = (image ?? 1) - 1;
      const attached = images[index];
      if (!attached) return { ok: false, content: say(texts.outOfRange, language, { count: images.length }) };
      const result = await context.readImageText(index);
      const section = imageTextSection(index + 1, attached.name, result, language);
      const shownNext = await context.showImageToModel(index);
      return { ok: result.ok, content: shownNext ? `${section}\n${say(texts.shownNext, language)}` : section };
    },
  });
}
