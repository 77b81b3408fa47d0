import { readFileSync } from 'node:fs';
import net from 'node:net';

// Many webhook deliveries at once on raw sockets, each a head and one shared body (so the sender holds one copy),
// and the memory figures of a process from /proc/<pid>/status. For the flood test and its measurement.

export interface FloodResult {
  /** How many connections ended with each status ('none': closed or reset before an answer). */
  statuses: Record<string, number>;
}

/**
 * Sends `connections` POSTs of `body` with `head` (ending in \r\n\r\n) the way that makes a server hold the most: every
 * connection first sends its head and all of its body but the last byte, and only when every connection has
 * handed that to the kernel (or been answered) does each send its last byte. Resolves when every one ended.
 */
export async function flood(port: number, head: string, body: Buffer, connections: number): Promise<FloodResult> {
  const statuses: Record<string, number> = {};
  const allButLast = body.subarray(0, body.length - 1);
  const last = body.subarray(body.length - 1);
  let release: () => void = () => undefined;
  const everyoneSent = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  const oneSent = (): void => {
    sent += 1;
    if (sent === connections) release();
  };
  const one = (): Promise<void> =>
    new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let received = '';
      let done = false;
      let counted = false;
      const countSent = (): void => {
        if (counted) return;
        counted = true;
        oneSent();
      };
      const finish = (): void => {
        if (done) return;
        done = true;
        countSent();
        const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 'none';
        statuses[status] = (statuses[status] ?? 0) + 1;
        socket.destroy();
        resolve();
      };
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) finish();
      });
      socket.on('error', finish);
      socket.on('close', finish);
      socket.once('connect', () => {
        socket.write(head);
        socket.write(allButLast, () => countSent());
        void everyoneSent.then(() => {
          if (!done) socket.write(last);
        });
      });
    });
  await Promise.all(Array.from({ length: connections }, one));
  return { statuses };
}

/** VmRSS and VmHWM (peak) of a process, in MiB. */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) / 1024;
  return { rssMiB: Math.round(field('VmRSS')), peakMiB: Math.round(field('VmHWM')) };
}
