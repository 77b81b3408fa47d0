import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// The platform clients send files from disk: a text made here (the rest of a capped reply) is written to a private
// temporary folder for the send, and removed after it.

export async function withTextFile<Result>(
  name: string,
  text: string,
  use: (file: { path: string; name: string; size: number }) => Promise<Result>,
): Promise<Result> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'saeng-reply-'));
  const file = path.join(folder, path.basename(name));
  try {
    const data = Buffer.from(text, 'utf8');
    await writeFile(file, data, { mode: 0o600 });
    return await use({ path: file, name, size: data.length });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
