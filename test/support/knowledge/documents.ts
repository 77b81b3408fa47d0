import { Document, Packer, Paragraph, TextRun } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// Test documents generated on the fly (no binary fixtures in the repository).

/** A PDF whose pages carry the given lines as real text (Helvetica, so Latin text only). */
export async function makePdf(pages: readonly (readonly string[])[], options: { useObjectStreams?: boolean } = {}): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = document.addPage();
    lines.forEach((line, index) => page.drawText(line, { x: 50, y: 750 - index * 16, size: 12, font }));
  }
  return document.save({ useObjectStreams: options.useObjectStreams ?? true });
}

/** Pages with drawings but no text layer: what a scanner produces (without OCR). */
export async function makeScannedPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage();
  page.drawRectangle({ x: 40, y: 40, width: 400, height: 600, borderWidth: 2 });
  return document.save();
}

/**
 * A PDF of pages that are either a PNG image and nothing else (a scan: no text layer) or lines of real text
 * (Helvetica). An image page is the image's size at `dpi`, as a scanner makes it.
 */
export async function makePagesPdf(pages: readonly (Uint8Array | readonly string[])[], dpi = 150): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (const content of pages) {
    if (content instanceof Uint8Array) {
      const image = await document.embedPng(content);
      const width = (image.width * 72) / dpi;
      const height = (image.height * 72) / dpi;
      document.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
    } else {
      const page = document.addPage();
      content.forEach((line, index) => page.drawText(line, { x: 50, y: 750 - index * 16, size: 12, font }));
    }
  }
  return document.save();
}

/**
 * A PDF with the standard security handler and a non-empty user password: readers must ask for it. pdf-lib
 * cannot encrypt, so the /Encrypt dictionary is written into the trailer by hand (its /O and /U entries do
 * not match the empty password, which is what a reader checks first).
 */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const plain = Buffer.from(await makePdf([['secret text']], { useObjectStreams: false })).toString('latin1');
  const encrypt = `/Encrypt << /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`;
  const identifier = '<0123456789abcdef0123456789abcdef>';
  const encrypted = plain.replace('trailer\n<<', `trailer\n<<\n${encrypt}\n/ID [${identifier} ${identifier}]\n`);
  if (encrypted === plain) throw new Error('pdf-lib output has no trailer to patch');
  return Buffer.from(encrypted, 'latin1');
}

export async function makeDocx(paragraphs: readonly string[]): Promise<Uint8Array> {
  const document = new Document({ sections: [{ children: paragraphs.map((text) => new Paragraph({ children: [new TextRun(text)] })) }] });
  return new Uint8Array(await Packer.toBuffer(document));
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
