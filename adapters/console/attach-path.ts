import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { errorCode } from '../../src/shared/error-code.js';

// `/attach <path>`: the path as a shell would read it (`~` is the home directory), checked at once, so the user
// hears about a missing file while still at the prompt, not a message later.

const messages = {
  usage: { th: 'พิมพ์ /attach ตามด้วยที่อยู่ไฟล์ เช่น /attach ~/รายงาน.pdf', en: 'Type /attach followed by a file path, e.g. /attach ~/report.pdf' },
  notFound: { th: 'ไม่พบไฟล์: {path}', en: 'File not found: {path}' },
  notAFile: { th: 'ไม่ใช่ไฟล์: {path} (แนบได้เฉพาะไฟล์ ไม่ใช่โฟลเดอร์)', en: 'Not a file: {path} (only files can be attached, not folders)' },
  noPermission: { th: 'ไม่มีสิทธิ์อ่านไฟล์: {path}', en: 'No permission to read the file: {path}' },
  tooLarge: {
    th: 'ไฟล์ใหญ่เกินไป: {path} ({size} รับได้ไม่เกิน {limit})',
    en: 'The file is too large: {path} ({size}, at most {limit})',
  },
  unreadable: { th: 'เปิดไฟล์ไม่ได้: {path} ({code})', en: 'Cannot open the file: {path} ({code})' },
} satisfies Record<string, Localized>;

export type AttachCheck = { ok: true; path: string } | { ok: false; problem: string };

/** `~` and `~/…` are the home directory (`~user` is not expanded); the rest is resolved from the working directory. */
export function expandHome(file: string, home = os.homedir()): string {
  if (file === '~') return home;
  if (file.startsWith('~/') || file.startsWith(`~${path.sep}`)) return path.join(home, file.slice(2));
  return path.resolve(file);
}

/** The absolute path of an attachable file, or what is wrong with it in the user's language. */
export async function checkAttachment(typed: string, options: { language: Language; maxBytes?: number }): Promise<AttachCheck> {
  const { language, maxBytes } = options;
  if (typed === '') return { ok: false, problem: say(messages.usage, language) };
  const file = expandHome(typed);
  const problem = (text: Localized, values: Record<string, string> = {}): AttachCheck => ({
    ok: false,
    problem: say(text, language, { path: file, ...values }),
  });
  try {
    const info = await stat(file);
    if (!info.isFile()) return problem(messages.notAFile);
    if (maxBytes !== undefined && info.size > maxBytes)
      return problem(messages.tooLarge, { size: sizeText(info.size, language), limit: sizeText(maxBytes, language) });
    await access(file, constants.R_OK);
    return { ok: true, path: file };
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return problem(messages.notFound);
    if (code === 'EACCES' || code === 'EPERM') return problem(messages.noPermission);
    return problem(messages.unreadable, { code: code ?? 'error' });
  }
}

const bytesUnit: Localized = { th: '{count} ไบต์', en: '{count} bytes' };

function sizeText(bytes: number, language: Language): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return say(bytesUnit, language, { count: bytes });
}
