import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

// Images of known text for OCR tests and the OCR bench, drawn with sharp's Pango text renderer and the OFL fonts
// committed in test/fixtures/fonts (with their licences) — never a system font, so a machine with only Node
// draws the same pictures. Nothing else is stored: the reference text is the source, the picture is made from it.

export const thaiFontDirectory = fileURLToPath(new URL('../fixtures/fonts/', import.meta.url));

/** Three Thai faces (a looped formal sans, a loopless sans, a display face) and a Latin monospace for keys. */
export type ThaiFont = 'Sarabun' | 'NotoSansThai' | 'Kanit' | 'PlexMono';

const fonts: Record<ThaiFont, { file: string; family: string }> = {
  Sarabun: { file: 'Sarabun-Regular.ttf', family: 'Sarabun' },
  NotoSansThai: { file: 'NotoSansThai-Regular.ttf', family: 'Noto Sans Thai' },
  Kanit: { file: 'Kanit-Regular.ttf', family: 'Kanit' },
  PlexMono: { file: 'IBMPlexMono-Regular.ttf', family: 'IBM Plex Mono' },
};

export function thaiFontFile(font: ThaiFont): string {
  return `${thaiFontDirectory}${fonts[font].file}`;
}

export interface TextImageOptions {
  /** Lines are kept as given (Pango wraps nothing unless `width` is set). */
  text: string;
  font?: ThaiFont;
  /** Point size at `dpi`; 14 pt at 150 dpi is ordinary printed text (~30 px lines). */
  points?: number;
  dpi?: number;
  /** Wrap at this many pixels. */
  width?: number;
  /** White margin around the text, in pixels. */
  margin?: number;
  /** Extra pixels between lines. */
  lineSpacing?: number;
}

/** Black text on white, RGB PNG. */
export async function renderTextImage(options: TextImageOptions): Promise<Buffer> {
  const font = options.font ?? 'NotoSansThai';
  const margin = options.margin ?? 40;
  const drawn = await sharp({
    text: {
      // Pango reads markup: the text is escaped so "<" and "&" in a receipt stay literal.
      text: escapeMarkup(options.text),
      fontfile: thaiFontFile(font),
      font: `${fonts[font].family} ${options.points ?? 14}`,
      dpi: options.dpi ?? 150,
      spacing: options.lineSpacing ?? 8,
      // RGBA: black glyphs on transparency (without it Pango's output is a white-on-black mask).
      rgba: true,
      ...(options.width ? { width: options.width } : {}),
    },
  })
    .png()
    .toBuffer();
  return (
    sharp(drawn)
      // sharp runs flatten before extend whatever the call order: the margin is drawn opaque white itself.
      .flatten({ background: '#ffffff' })
      .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#ffffff' })
      .removeAlpha()
      .png()
      .toBuffer()
  );
}

function escapeMarkup(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** A Thai café receipt: the figures a user asks about ("รวมเท่าไหร่"). */
export const thaiReceiptText = [
  'ร้านกาแฟแสงเช้า',
  'ใบเสร็จรับเงิน เลขที่ 00123',
  'วันที่ 12 มีนาคม 2569',
  'ลาเต้เย็น 2 แก้ว 130.00 บาท',
  'ขนมปังปิ้ง 1 ชิ้น 45.00 บาท',
  'น้ำเปล่า 1 ขวด 15.00 บาท',
  'รวมทั้งสิ้น 190.00 บาท',
  'ขอบคุณที่อุดหนุน',
].join('\n');
