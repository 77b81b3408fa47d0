import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Localized } from '../../../src/shared/i18n.js';

// The per-conversation file sandbox: DATA_DIR/files/<folder derived from the conversation key>. File names are
// flat (no folders), NFC, without control characters, separators or leading dots, Thai letters allowed,
// capped in length, and of a text format only.

export const maxWriteBytes = 1024 * 1024;
export const maxReadBytes = 256 * 1024;
const maxBaseLength = 100;

export const textFormats: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
};

/** A readable, collision-free folder name: `discord_123_456-<10 hex of SHA-256>`. */
export function sandboxFolderName(conversationKey: string): string {
  const readable = conversationKey.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const digest = createHash('sha256').update(conversationKey).digest('hex').slice(0, 10);
  return `${readable}-${digest}`;
}

export function sandboxRoot(context: { dataDir: string; conversationKey: string }): string {
  return path.resolve(context.dataDir, 'files', sandboxFolderName(context.conversationKey));
}

export async function ensureSandbox(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o700 });
}

export type NameProblem = 'empty' | 'format';

export type SanitizedName = { ok: true; name: string; mime: string } | { ok: false; problem: NameProblem };

export const nameProblems: Record<NameProblem, Localized> = {
  empty: { th: 'ชื่อไฟล์ว่างหรือใช้ไม่ได้', en: 'The file name is empty or unusable' },
  format: { th: 'รองรับเฉพาะไฟล์ข้อความ .txt .md .csv .json .html', en: 'Only text files are supported: .txt .md .csv .json .html' },
};

/**
 * A safe flat name: folders become `_`, anything but letters (Thai included), marks, digits, space and
 * `-_.()` becomes `_`, leading dots and spaces go, the base is capped; no extension means `.txt`.
 */
export function sanitizeFileName(requested: string): SanitizedName {
  const flat = requested
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .replace(/[/\\]/g, '_')
    .replace(/[^\p{L}\p{M}\p{N} ._()-]/gu, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[. ]{1,255}/, '')
    .trim();
  const extension = path.extname(flat).toLowerCase();
  const base = (extension ? flat.slice(0, -extension.length) : flat).trim();
  if (base === '' || base === '_') return { ok: false, problem: 'empty' };
  const finalExtension = extension === '' ? '.txt' : extension;
  const mime = textFormats[finalExtension];
  if (!mime) return { ok: false, problem: 'format' };
  const cappedBase = Array.from(base).slice(0, maxBaseLength).join('').trimEnd();
  return { ok: true, name: `${cappedBase}${finalExtension}`, mime };
}

/** 850 B · 12.4 KB · 1.0 MB */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
