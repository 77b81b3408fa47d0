import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Files are streamed (a sandbox may hold large files) and hashed on the way, so each byte is read once.

export interface FileDigest {
  size: number;
  sha256: string;
}

/** The size and SHA-256 (hex) of a file. */
export async function digestFile(file: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    const bytes = chunk as Buffer;
    size += bytes.length;
    hash.update(bytes);
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Copies `source` to a new file `destination` (never over an existing one), flushed to disk before it resolves,
 * and returns the digest of the bytes written: what the copy holds, even if the source changed while it was read.
 */
export async function copyFileWithDigest(source: string, destination: string, mode = 0o600): Promise<FileDigest> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  await pipeline(createReadStream(source), tap, createWriteStream(destination, { flags: 'wx', mode, flush: true }));
  return { size, sha256: hash.digest('hex') };
}
