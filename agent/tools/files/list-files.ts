import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { say, type Localized } from '../../../src/shared/i18n.js';
import { defineTool, type AnyTool, type ToolResult } from '../tool.js';
import { formatSize, sandboxRoot, textFormats } from './sandbox.js';

const texts = {
  empty: { th: 'ยังไม่มีไฟล์ในพื้นที่ไฟล์ของแชตนี้', en: "There are no files in this chat's file area yet" },
  heading: { th: 'ไฟล์ในพื้นที่ของแชตนี้ ({count} ไฟล์):', en: "Files in this chat's file area ({count}):" },
  failed: { th: 'ดูรายการไฟล์ไม่สำเร็จ: {error}', en: 'Could not list the files: {error}' },
} satisfies Record<string, Localized>;

const maxListed = 200;

export interface SandboxEntry {
  name: string;
  size: number;
  modified: Date;
}

/** Text files directly in the sandbox, by name; a missing sandbox is an empty one. */
export async function listSandbox(root: string): Promise<SandboxEntry[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  });
  const files = entries.filter((entry) => entry.isFile() && !entry.name.startsWith('.') && textFormats[path.extname(entry.name).toLowerCase()]);
  const described = await Promise.all(
    files.slice(0, maxListed).map(async (entry) => {
      const info = await stat(path.join(root, entry.name));
      return { name: entry.name, size: info.size, modified: info.mtime };
    }),
  );
  return described.sort((a, b) => a.name.localeCompare(b.name, 'th'));
}

export function createListFilesTool(): AnyTool {
  return defineTool({
    name: 'list_files',
    description: "List the text files saved in this chat's file area.",
    input: z.object({}),
    async execute(_input, context): Promise<ToolResult> {
      const language = context.language;
      try {
        const files = await listSandbox(sandboxRoot(context));
        if (files.length === 0) return { ok: true, content: say(texts.empty, language) };
        const lines = files.map((file) => `- ${file.name} (${formatSize(file.size)}, ${file.modified.toISOString().slice(0, 16).replace('T', ' ')} UTC)`);
        return { ok: true, content: [say(texts.heading, language, { count: files.length }), ...lines].join('\n') };
      } catch (error) {
        return { ok: false, content: say(texts.failed, language, { error: error instanceof Error ? error.message.slice(0, 200) : String(error) }) };
      }
    },
  });
}
