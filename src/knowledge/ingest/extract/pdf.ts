export type PdfText = { ok: true; pages: string[] } | { ok: false; reason: 'encrypted' | 'corrupt' };

/** The text layer of every page, trimmed, in page order; '' for a page without one (a scan or a drawing). */
export async function pdfPageTexts(bytes: Uint8Array): Promise<PdfText> {
  // Loaded on first use: pdf.js costs ~160 MB of resident memory, which a bot that never sees a PDF should not pay.
  const { PasswordException, PDFParse, VerbosityLevel } = await import('pdf-parse');
  // pdf.js may take ownership of the buffer it is given: hand it a copy.
  const parser = new PDFParse({ data: new Uint8Array(bytes), verbosity: VerbosityLevel.ERRORS });
  try {
    const result = await parser.getText({ pageJoiner: '' });
    const pages = Array.from({ length: result.total }, () => '');
    for (const page of result.pages) {
      if (page.num >= 1 && page.num <= result.total) pages[page.num - 1] = page.text.trim();
    }
    return { ok: true, pages };
  } catch (error) {
    return { ok: false, reason: error instanceof PasswordException ? 'encrypted' : 'corrupt' };
  } finally {
    await parser.destroy().catch(() => undefined);
  }
}
