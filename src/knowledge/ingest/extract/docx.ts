export type DocxText = { ok: true; text: string } | { ok: false };

/** DOCX → raw text (paragraphs separated by blank lines); a broken ZIP or missing document part → not ok. */
export async function docxToPlainText(bytes: Uint8Array): Promise<DocxText> {
  try {
    // Loaded on first use, like pdf.js: most bots never receive a DOCX.
    const { default: mammoth } = await import('mammoth');
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes) });
    return { ok: true, text: result.value };
  } catch {
    return { ok: false };
  }
}
