export type PdfText = { ok: true; text: string } | { ok: false; reason: 'encrypted' | 'scanned' | 'corrupt' };

/** Text layer of every page; a PDF without any text is a scan (or drawings) that needs OCR first. */
export async function pdfToPlainText(bytes: Uint8Array): Promise<PdfText> {
  // Loaded on first use: pdf.js costs ~160 MB of resident memory, which a bot that never sees a PDF should not pay.
  const { PasswordException, PDFParse, VerbosityLevel } = await import('pdf-parse');
  // pdf.js may take ownership of the buffer it is given: hand it a copy.
  const parser = new PDFParse({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS });
  try {
    const result = await parser.getText({ pageJoiner: '' });
    const text = result.pages.map((page) => page.text.trim()).join('\n\n');
    if (!text.trim()) return { ok: false, reason: 'scanned' };
    return { ok: true, text };
  } catch (error) {
    return { ok: false, reason: error instanceof PasswordException ? 'encrypted' : 'corrupt' };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
