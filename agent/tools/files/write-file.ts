import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { say, type Localized } from '../../../src/shared/i18n.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { releasesSecretPart } from '../../../src/dlp/configured-secret-parts.js';
import { checkPath } from '../../guards/credential-path.js';
import { defineTool, type AnyTool, type ToolResult } from '../tool.js';
import { refusedPathReason } from './path-messages.js';
import { ensureSandbox, formatSize, maxWriteBytes, nameProblems, sandboxRoot, sanitizeFileName } from './sandbox.js';

const texts = {
  refused: { th: 'ไม่อนุญาตให้เขียนไฟล์ "{name}": {reason}', en: 'Writing "{name}" is not allowed: {reason}' },
  tooLarge: { th: 'เนื้อหายาว {size} เกินขีดจำกัด 1 MB ของไฟล์', en: 'The content is {size}, over the 1 MB file limit' },
  credential: {
    th: 'ไม่บันทึก เพราะเนื้อหามีข้อมูลที่ดูเหมือนรหัสลับ ({kinds})',
    en: 'Not saved: the content contains what looks like a credential ({kinds})',
  },
  saved: { th: 'บันทึกไฟล์ {name} แล้ว ({size}) ไฟล์จะถูกส่งให้ผู้ใช้พร้อมคำตอบ', en: 'Saved {name} ({size}); the file will be sent to the user with the answer' },
  failed: { th: 'บันทึกไฟล์ไม่สำเร็จ: {error}', en: 'Could not save the file: {error}' },
} satisfies Record<string, Localized>;

const input = z.object({
  name: z.string().min(1).max(255).describe('File name with a text extension: .txt .md .csv .json .html, e.g. "summary.md".'),
  content: z.string().max(maxWriteBytes).describe('The full text to save (at most 1 MB). Overwrites a file of the same name.'),
});

export function createWriteFileTool(): AnyTool {
  return defineTool({
    name: 'write_file',
    description:
      "Save text as a file in this chat's file area; the file is sent to the user with your answer. Use it whenever the user asks to save, write, create or export a file.",
    input,
    async execute({ name, content }, context): Promise<ToolResult> {
      const language = context.language;
      const root = sandboxRoot(context);
      const requested = checkPath(name, root);
      if (!requested.ok) {
        context.log.warn({ tool: 'write_file', reason: requested.reason }, 'file path refused');
        return { ok: false, content: say(texts.refused, language, { name, reason: refusedPathReason(requested.reason, language) }) };
      }
      const sanitized = sanitizeFileName(name);
      if (!sanitized.ok) return { ok: false, content: say(nameProblems[sanitized.problem], language) };
      const bytes = Buffer.byteLength(content, 'utf8');
      if (bytes > maxWriteBytes) return { ok: false, content: say(texts.tooLarge, language, { size: formatSize(bytes) }) };
      const scan = scanForCredentials(content, { secrets: context.secrets });
      const kinds = scan.found ? scan.kinds : releasesSecretPart(content, context.secrets) ? ['configured-secret-part'] : [];
      if (kinds.length > 0) return { ok: false, content: say(texts.credential, language, { kinds: kinds.join(', ') }) };

      try {
        await ensureSandbox(root);
        const target = checkPath(sanitized.name, root); // again for the final name: a symlink may sit there
        if (!target.ok) {
          return { ok: false, content: say(texts.refused, language, { name: sanitized.name, reason: refusedPathReason(target.reason, language) }) };
        }
        const temporary = path.join(root, `.${randomBytes(6).toString('hex')}.partial`);
        try {
          await writeFile(temporary, content, { encoding: 'utf8', flag: 'wx', mode: 0o600 });
          await rename(temporary, target.resolved);
        } finally {
          await rm(temporary, { force: true });
        }
        return {
          ok: true,
          content: say(texts.saved, language, { name: sanitized.name, size: formatSize(bytes) }),
          files: [{ name: sanitized.name, path: target.resolved, mime: sanitized.mime, size: bytes }],
        };
      } catch (error) {
        const message = error instanceof Error ? error.message.replaceAll(root, '…') : String(error);
        return { ok: false, content: say(texts.failed, language, { error: message.slice(0, 200) }) };
      }
    },
  });
}
