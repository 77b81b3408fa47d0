import net from 'node:net';

// HTTP/1.1 as bytes on a raw socket (node:net): request lines and headers no HTTP client would send. Resolves once
// the server's first answer is complete (by its Content-Length or chunked end) or the connection closed; `end`
// tells how it closed, so a test can tell a clean close from a reset.

export interface RawAnswer {
  /** The status code of the first response, undefined when none came. */
  status: number | undefined;
  /** Everything received. */
  received: string;
  /** 'answered': a complete response (socket left open); 'closed': FIN; 'reset': ECONNRESET/EPIPE. */
  end: 'answered' | 'closed' | 'reset';
}

function responseComplete(received: Buffer): boolean {
  const headerEnd = received.indexOf('\r\n\r\n');
  if (headerEnd === -1) return false;
  const head = received.subarray(0, headerEnd).toString('latin1').toLowerCase();
  const lengthLine = head.split('\r\n').find((line) => line.startsWith('content-length:'));
  if (lengthLine) return received.length - headerEnd - 4 >= Number(lengthLine.slice('content-length:'.length).trim());
  if (head.includes('transfer-encoding: chunked')) return received.includes('\r\n0\r\n\r\n', headerEnd);
  return false;
}

/**
 * Sends `parts` one after the other (each written once the previous was flushed; a promise is waited for) and
 * waits for the answer.
 * `keepSending`: more bytes written after the parts, in `keepSending.chunk` pieces, until the server answers or closes.
 */
export function rawRequest(
  port: number,
  parts: readonly (string | Buffer | Promise<void>)[],
  options: { keepSending?: { chunk: Buffer; max: number } } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (end: RawAnswer['end']): void => {
      if (settled) return;
      settled = true;
      const received = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1];
      socket.destroy();
      resolve({ status: status === undefined ? undefined : Number(status), received, end });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (responseComplete(Buffer.concat(chunks))) settle('answered');
    });
    socket.on('end', () => settle('closed'));
    socket.on('close', () => settle('closed'));
    socket.on('error', () => settle('reset'));
    socket.once('connect', () => {
      void (async () => {
        for (const part of parts) {
          if (settled) return;
          // A promise in the parts: wait for it before writing on (the test decides when the rest is sent).
          if (part instanceof Promise) await part;
          else await new Promise<void>((written) => socket.write(part, () => written()));
        }
        const extra = options.keepSending;
        for (let sent = 0; extra && sent < extra.max && !settled && socket.writable; sent += extra.chunk.length) {
          await new Promise<void>((written) => socket.write(extra.chunk, () => written()));
        }
      })().catch(() => settle('reset'));
    });
  });
}
