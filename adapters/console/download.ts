import { open } from 'node:fs/promises';
import type { Attachment } from '../../src/shared/types.js';

/** The console's attachments are local files: reads at most `maxBytes`; a larger file is an error, not a silent truncation. */
export async function downloadConsoleFile(attachment: Attachment, maxBytes: number): Promise<Uint8Array> {
  if (attachment.reference.kind !== 'path') throw new Error(`not a console attachment (${attachment.reference.kind})`);
  const handle = await open(attachment.reference.path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new Error(`file is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(size);
    await handle.read(buffer, 0, size, 0);
    return new Uint8Array(buffer.buffer, buffer.byteOffset, size);
  } finally {
    await handle.close();
  }
}
