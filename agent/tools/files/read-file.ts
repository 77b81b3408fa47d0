import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { say, type Localized } from '../../../src/shared/i18n.js';
import { checkPath } from '../../guards/credential-path.js';
import { defineTool, type AnyTool, type ToolResult } from '../tool.js';
import { listSandbox } from './list-files.js';
import { refusedPathReason } from './path-messages.js';
import { formatSize, maxReadBytes, sandboxRoot, sanitizeFileName, textFormats } from './sandbox.js';

const texts = {
  refused: { th: 'ไม่อนุญาตให้อ่าน "{name}": {reason}', en: 'Reading "{name}" is not allowed: {reason}' },
  notFound: { th: 'ไม่พบไฟล์ "{name}" ไฟล์ที่มี: {names}', en: 'No file "{name}". Files here: {names}' },
  format: { th: 'อ่านได้เฉพาะไฟล์ข้อความ .txt .md .csv .json .html', en: 'Only text files can be read: .txt .md .csv .json .html' },
  header: { th: 'ไฟล์ {name} ({size}):', en: 'File {name} ({size}):' },
  truncated: {
    th: '[แสดงเพียง {shown} แรกจากทั้งหมด {size}]',
    en: '[only the first {shown} of {size} shown]',
  },
  failed: { th: 'อ่านไฟล์ไม่สำเร็จ: {error}', en: 'Could not read the file: {error}' },
} satisfies Record<string, Localized>;

const input = z.object({
  name: z.string().min(1).max(255).describe('Name of a file in this chat’s file area (see list_files), e.g. "summary.md".'),
});

/** Up to `limit` bytes, decoded as UTF-8 without a broken character at the cut. */
async function readHead(file: string, limit: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    const { bytesRead } = await handle.read(buffer, 0, limit, 0);
    return new TextDecoder('utf-8').decode(buffer.subarray(0, bytesRead), { stream: true });
  } finally {
    await handle.close();
  }
}

export function createReadFileTool(): AnyTool {
  return defineTool({
    name: 'read_file',
    description: "Read a text file from this chat's file area (files saved earlier with write_file). At most 256 KB is returned.",
    input,
    async execute({ name }, context): Promise<ToolResult> {
      const language = context.language;
      const root = sandboxRoot(context);
      const checked = checkPath(name, root);
      if (!checked.ok) {
        context.log.warn({ tool: 'read_file', reason: checked.reason }, 'file path refused');
        return { ok: false, content: say(texts.refused, language, { name, reason: refusedPathReason(checked.reason, language) }) };
      }
      // The model may ask for the name it gave write_file rather than the sanitized one.
      const sanitized = sanitizeFileName(name);
      const candidates = [checked.resolved];
      if (sanitized.ok) {
        const alternative = checkPath(sanitized.name, root);
        if (alternative.ok) candidates.push(alternative.resolved);
      }
      try {
        for (const candidate of candidates) {
          const info = await stat(candidate).catch(() => undefined);
          if (!info?.isFile()) continue;
          if (!textFormats[path.extname(candidate).toLowerCase()]) return { ok: false, content: say(texts.format, language) };
          const text = await readHead(candidate, maxReadBytes);
          const parts = [say(texts.header, language, { name: path.basename(candidate), size: formatSize(info.size) }), text];
          if (info.size > maxReadBytes) parts.push(say(texts.truncated, language, { shown: formatSize(maxReadBytes), size: formatSize(info.size) }));
          return { ok: true, content: parts.join('\n\n') };
        }
        const names = (await listSandbox(root)).map((entry) => entry.name);
        return { ok: false, content: say(texts.notFound, language, { name, names: names.join(', ') || '-' }) };
      } catch (error) {
        const message = error instanceof Error ? error.message.replaceAll(root, '…') : String(error);
        return { ok: false, content: say(texts.failed, language, { error: message.slice(0, 200) }) };
      }
    },
  });
}
