import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { seeded } from '../../../bench/seeded.js';
import { rawRequest } from '../../support/raw-http.js';
import { chunkOf, multipartBody, startUploadServer, testLimits, uploadHead, type Part, type UploadServer } from '../../support/upload-server.js';

// What a hostile client can do to the upload reader (src/web/multipart-upload.ts) over a real socket: stream far
// more than any limit (memory stays bounded: the bytes past the limit are never kept), and a few hundred random and
// mutated bodies, each of which must get an answer without an unhandled rejection.

let server: UploadServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const mib = 1024 * 1024;

/** What the process holds: the JS heap plus Buffers (which live outside it). */
function heldBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * Sends `head`, then `chunk` again and again (one Buffer: the client holds no more than it) until `max` bytes went
 * out or the server closed, then `tail`: a hostile client that ignores the answer. Samples what the process holds
 * every MiB.
 */
async function streamIgnoringAnswer(
  port: number,
  head: Buffer,
  chunk: Buffer,
  max: number,
  tail: string,
): Promise<{ status: number | undefined; sent: number; peak: number }> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let ended = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  socket.on('error', () => undefined);
  void closed.then(() => (ended = true));
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(head);
  let sent = 0;
  let peak = heldBytes();
  while (sent < max && !ended) {
    if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
    sent += chunk.length;
    if (sent % mib < chunk.length) peak = Math.max(peak, heldBytes());
  }
  socket.end(tail);
  await closed;
  const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
  return { status: status === undefined ? undefined : Number(status), sent, peak };
}

describe('a stream far past the limits', () => {
  it('200 MB against a 20 MB file limit: too-large at the limit, the rest discarded, never held', async () => {
    // A linger long enough for the whole stream to be discarded (the bot's 2 s would close a slower sender sooner).
    server = await startUploadServer({ maxFileBytes: 20 * mib, maxTotalBytes: 64 * mib, timeoutMs: 60_000 }, 60_000);
    const served = server.nextRequest();
    const boundary = 'huge-boundary';
    const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const head = Buffer.from(uploadHead(`multipart/form-data; boundary=${boundary}`, undefined) + chunkOf(Buffer.from(partHead)).toString('latin1'), 'latin1');
    const before = heldBytes();
    const { status, sent, peak } = await streamIgnoringAnswer(server.port, head, chunkOf(Buffer.alloc(64 * 1024, 0x7a)), 200 * mib, '0\r\n\r\n');
    const result = await (await served).result;
    const after = heldBytes();
    console.info(
      `200 MB stream: sent ${(sent / mib).toFixed(1)} MiB; held +${((peak - before) / mib).toFixed(1)} MiB at the peak, +${((after - before) / mib).toFixed(1)} MiB after`,
    );
    expect(result).toEqual({ ok: false, failure: { code: 'too-large', limitBytes: 20 * mib, fileName: 'huge.bin' } });
    // The answer came while the client was still sending, and all of the stream went through the server.
    expect(status).toBe(413);
    expect(sent).toBeGreaterThanOrEqual(200 * mib);
    // The 20 MiB collected before the limit passed (dropped at once), plus garbage not yet collected.
    expect(peak - before).toBeLessThan(100 * mib);
  });
});

/** A small multipart body within testLimits, and what the reader must make of it. */
interface Sample {
  parts: Part[];
  fields: Record<string, string>;
  files: { field: string; name: string; size: number }[];
}

const names = ['a.txt', 'คู่มือ.pdf', 'รายงาน ปี 2567.docx', 'dir/inner.csv', 'C:\\x\\y.md', 'ราคา (ฉบับแก้).xlsx', '😀.png', '.env'];
const safeNames = ['a.txt', 'คู่มือ.pdf', 'รายงาน ปี 2567.docx', 'inner.csv', 'y.md', 'ราคา (ฉบับแก้).xlsx', '😀.png', '.env'];

function sample(random: () => number): Sample {
  const pick = (count: number): number => Math.floor(random() * count);
  const entries: { part: Part; file?: Sample['files'][number] }[] = [];
  const fields: Record<string, string> = {};
  for (let field = pick(testLimits.maxFields + 1); field > 0; field -= 1) {
    const value = 'ค่า'.repeat(pick(5)) + String(pick(1000));
    entries.push({ part: { name: `field${field}`, value } });
    fields[`field${field}`] = value;
  }
  for (let file = pick(testLimits.maxFiles + 1); file > 0; file -= 1) {
    const which = pick(names.length);
    const bytes = Buffer.from(Array.from({ length: pick(testLimits.maxFileBytes + 1) }, () => pick(256)));
    entries.push({
      part: { name: 'files', filename: names[which], value: bytes, type: 'application/octet-stream' },
      file: { field: 'files', name: safeNames[which] ?? '', size: bytes.length },
    });
  }
  // Fields and files interleaved in any order (Fisher–Yates): the reader must not care.
  for (let index = entries.length - 1; index > 0; index -= 1) {
    const other = pick(index + 1);
    [entries[index], entries[other]] = [entries[other]!, entries[index]!];
  }
  return { parts: entries.map((entry) => entry.part), fields, files: entries.flatMap((entry) => (entry.file ? [entry.file] : [])) };
}

/** One to four random edits: flipped, inserted, deleted, repeated bytes, a cut, bare LFs, a stray boundary. */
function mutate(body: Buffer, boundary: string, random: () => number): Buffer {
  const at = (): number => Math.floor(random() * (body.length + 1));
  for (let edit = 1 + Math.floor(random() * 4); edit > 0; edit -= 1) {
    const start = at();
    const end = Math.min(body.length, start + Math.floor(random() * 64));
    switch (Math.floor(random() * 7)) {
      case 0:
        body = Buffer.concat([body.subarray(0, start), Buffer.from([Math.floor(random() * 256)]), body.subarray(start + 1)]);
        break;
      case 1:
        body = Buffer.concat([
          body.subarray(0, start),
          Buffer.from(Array.from({ length: 1 + (end - start) }, () => Math.floor(random() * 256))),
          body.subarray(start),
        ]);
        break;
      case 2:
        body = Buffer.concat([body.subarray(0, start), body.subarray(end)]);
        break;
      case 3:
        body = Buffer.concat([body.subarray(0, end), body.subarray(start, end), body.subarray(start, end), body.subarray(end)]);
        break;
      case 4:
        body = body.subarray(0, start);
        break;
      case 5:
        body = Buffer.from(body.toString('latin1').replaceAll('\r\n', random() < 0.5 ? '\n' : '\r\n\r\n'), 'latin1');
        break;
      default:
        body = Buffer.concat([body.subarray(0, start), Buffer.from(`\r\n--${boundary}${random() < 0.5 ? '--' : '\r\n'}`), body.subarray(start)]);
    }
  }
  return body;
}

/** A Content-Type a careless or hostile client might send instead of the right one. */
function mutateType(type: string, boundary: string, random: () => number): string {
  const variants = [
    `multipart/form-data`,
    `multipart/form-data; boundary="${boundary}"`,
    `MULTIPART/FORM-DATA; BOUNDARY=${boundary}`,
    `multipart/form-data; charset=utf-8; boundary=${boundary}`,
    `multipart/form-data; boundary=${boundary}x`,
    `multipart/form-data; boundary=${boundary}; boundary=other`,
    `multipart/form-data; boundary==`,
    `multipart/form-data;;;`,
    `text/plain; boundary=${boundary}`,
    `application/json`,
  ];
  return random() < 0.7 ? type : (variants[Math.floor(random() * variants.length)] ?? type);
}

describe('fuzz', () => {
  it('a few hundred random and mutated bodies on raw sockets: each gets an answer, intact ones their exact result', async () => {
    server = await startUploadServer({ timeoutMs: 2_000 });
    const port = server.port;
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    const random = seeded(32);
    const statuses = new Map<number | string, number>();

    /** One random request; `slow` ones promise more bytes than they send and are awaited at the end, together. */
    const send = async (slow: boolean): Promise<void> => {
      const boundary = `----fuzz${Math.floor(random() * 1e9).toString(36)}`;
      const sampled = sample(random);
      const intact = multipartBody(boundary, sampled.parts);
      const mutated = random() < 0.25 ? intact : mutate(intact, boundary, random);
      const type = mutated === intact ? `multipart/form-data; boundary=${boundary}` : mutateType(`multipart/form-data; boundary=${boundary}`, boundary, random);
      // Content-Length, or chunked in a few pieces, each written once the previous went out.
      const parts: (string | Buffer)[] =
        !slow && random() < 0.3
          ? [uploadHead(type, undefined), ...split(mutated, random).map(chunkOf), '0\r\n\r\n']
          : [uploadHead(type, mutated.length + (slow ? 10 : 0)), ...split(mutated, random)];
      const answer = await rawRequest(port, parts);
      statuses.set(answer.status ?? answer.end, (statuses.get(answer.status ?? answer.end) ?? 0) + 1);
      expect(answer.status, `${answer.end}: ${answer.received.slice(0, 200)}`).toBeDefined();
      // Only a body that never finished waits for the clock (it may be refused sooner, on what did arrive).
      if (answer.status === 408) expect(slow).toBe(true);
      if (mutated === intact && !slow) {
        const json = JSON.parse(Buffer.from(answer.received.slice(answer.received.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')) as unknown;
        const files = sampled.files.map((file) => ({ ...file, mime: 'application/octet-stream' }));
        expect([answer.status, json]).toEqual([200, { ok: true, fields: sampled.fields, files }]);
      }
    };

    const slowOnes: Promise<void>[] = [];
    try {
      for (let batch = 0; batch < 12; batch += 1) {
        const quick: Promise<void>[] = [];
        for (let request = 0; request < 25; request += 1) {
          if (random() < 0.05) slowOnes.push(send(true));
          else quick.push(send(false));
        }
        await Promise.all(quick);
      }
      await Promise.all(slowOnes);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    console.info(`fuzz: ${slowOnes.length} slow bodies; answers by status:`, Object.fromEntries(statuses));
    expect(rejections).toEqual([]);
    expect([...statuses.keys()].every((status) => [200, 400, 408, 413, 415].includes(Number(status)))).toBe(true);
    // The server is still serving.
    const after = multipartBody('b', [{ name: 'csrf', value: 't' }]);
    expect((await rawRequest(port, [uploadHead('multipart/form-data; boundary=b', after.length), after])).status).toBe(200);
  });
});

/** `bytes` in one to four pieces, each written once the previous went out. */
function split(bytes: Buffer, random: () => number): Buffer[] {
  const cuts = Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b);
  return [0, ...cuts].map((start, index) => bytes.subarray(start, [...cuts, bytes.length][index])).filter((piece) => piece.length > 0);
}
