import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadFileName, type RequiredFirstField, type UploadLimits, type UploadResult } from '../../../src/web/multipart-upload.js';
import { rawRequest } from '../../support/raw-http.js';
import { chunkOf, multipartBody, startUploadServer, uploadHead, type Part, type UploadServer } from '../../support/upload-server.js';

// The admin page's upload reader (src/web/multipart-upload.ts) against a real node:http server: what a browser
// sends (fetch with FormData), each limit at and past its edge, and bodies no browser sends, on raw sockets. Every
// request gets an answer and a result; the stream cut-off at 200 MB and the fuzz are in multipart-upload-hostile.

let server: UploadServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(limits: Partial<UploadLimits> = {}, firstField?: RequiredFirstField): Promise<UploadServer> {
  server = await startUploadServer(limits, 2_000, firstField);
  return server;
}

/** A FormData upload through fetch: the answer's status and the reader's result. */
async function post(upload: UploadServer, form: FormData): Promise<{ status: number; result: UploadResult }> {
  const served = upload.nextRequest();
  const response = await fetch(upload.url, { method: 'POST', body: form });
  await response.arrayBuffer();
  return { status: response.status, result: await (await served).result };
}

/** Raw bytes on a socket: the answer's status and the reader's result. */
async function postRaw(upload: UploadServer, parts: (string | Buffer)[]): Promise<{ status: number | undefined; result: UploadResult }> {
  const served = upload.nextRequest();
  const answer = await rawRequest(upload.port, parts);
  return { status: answer.status, result: await (await served).result };
}

function filled(size: number, byte = 0x61): Uint8Array {
  return new Uint8Array(size).fill(byte);
}

const boundary = 'saeng-boundary-7d1';
const multipartType = `multipart/form-data; boundary=${boundary}`;
const rawBody = (parts: readonly Part[]): string[] => {
  const body = multipartBody(boundary, parts);
  return [uploadHead(multipartType, body.length) + body.toString('latin1')];
};

describe('forms a browser sends', () => {
  it('two files and a field arrive whole, in order, with their types', async () => {
    const upload = await start();
    const pdf = Uint8Array.from({ length: 700 }, (_, index) => index % 256);
    const form = new FormData();
    form.append('csrf', 'token-123');
    form.append('files', new Blob([pdf], { type: 'application/pdf' }), 'report.pdf');
    form.append('files', new Blob(['สวัสดี\n']), 'notes.txt');
    const { status, result } = await post(upload, form);
    expect(status).toBe(200);
    if (!result.ok) throw new Error(`failed: ${result.failure.code}`);
    expect({ ...result.fields }).toEqual({ csrf: 'token-123' });
    expect(result.files.map(({ field, name, mime }) => ({ field, name, mime }))).toEqual([
      { field: 'files', name: 'report.pdf', mime: 'application/pdf' },
      { field: 'files', name: 'notes.txt', mime: 'application/octet-stream' },
    ]);
    expect(Buffer.from(result.files[0]?.bytes ?? []).equals(Buffer.from(pdf))).toBe(true);
    expect(Buffer.from(result.files[1]?.bytes ?? []).toString('utf8')).toBe('สวัสดี\n');
  });

  it('a required first field (a plain form’s CSRF token): before the files and right, the upload passes; after a file, wrong or missing, it is forbidden and no file is kept', async () => {
    const upload = await start({}, { name: 'csrf', accept: (value) => value === 'token-123' });
    const form = (fields: [string, string | Blob][]) => {
      const built = new FormData();
      for (const [name, value] of fields) {
        if (typeof value === 'string') built.append(name, value);
        else built.append(name, value, 'notes.txt');
      }
      return built;
    };
    const file = new Blob(['สวัสดี']);
    const passed = await post(
      upload,
      form([
        ['csrf', 'token-123'],
        ['files', file],
      ]),
    );
    expect([passed.status, passed.result.ok && passed.result.files.length]).toEqual([200, 1]);
    for (const fields of [
      [
        ['files', file],
        ['csrf', 'token-123'],
      ],
      [
        ['csrf', 'token-12'],
        ['files', file],
      ],
      [['files', file]],
      [],
    ] as [string, string | Blob][][]) {
      const refused = await post(upload, form(fields));
      expect([refused.status, refused.result]).toEqual([403, { ok: false, failure: { code: 'forbidden' } }]);
    }
  });

  it('Thai file names arrive intact: from fetch, as raw UTF-8 in filename="…", and as filename*=UTF-8\'\'…', async () => {
    const upload = await start();
    const form = new FormData();
    form.append('files', new Blob(['a']), 'คู่มือ.pdf');
    const fromFetch = await post(upload, form);
    const raw = await postRaw(upload, [
      uploadHead(multipartType, undefined),
      chunkOf(multipartBody(boundary, [{ name: 'files', filename: 'C:\\Users\\ครู\\คู่มือ.pdf', value: 'b' }])),
      '0\r\n\r\n',
    ]);
    const extended = await postRaw(upload, rawBody([{ name: 'files', filenameStar: 'คู่มือ การใช้งาน.pdf', value: 'c' }]));
    const names = [fromFetch, raw, extended].map(({ result }) => (result.ok ? result.files.map((file) => file.name) : result.failure.code));
    expect(names).toEqual([['คู่มือ.pdf'], ['คู่มือ.pdf'], ['คู่มือ การใช้งาน.pdf']]);
  });

  it('returns a zero-byte file and a file of exactly maxFileBytes; a file with no name is "upload"', async () => {
    const upload = await start({ maxFileBytes: 1000 });
    const form = new FormData();
    form.append('files', new Blob([]), 'empty.txt');
    form.append('files', new Blob([filled(1000)]), 'full.txt');
    form.append('files', new Blob(['x']), '');
    const { status, result } = await post(upload, form);
    expect(status).toBe(200);
    expect(result.ok && result.files.map((file) => [file.name, file.bytes.length])).toEqual([
      ['empty.txt', 0],
      ['full.txt', 1000],
      ['upload', 1],
    ]);
  });
});

describe('uploadFileName', () => {
  it('keeps the last path segment, drops control and bidi characters, trims; nothing left is "upload"', () => {
    expect(uploadFileName('../../etc/passwd')).toBe('passwd');
    expect(uploadFileName('C:\\Users\\a\\..\\รายงาน.docx')).toBe('รายงาน.docx');
    expect(uploadFileName('a\u0000b\u0007c\r\n\u007f\u0085.txt')).toBe('abc.txt');
    expect(uploadFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(uploadFileName('  spaced.pdf  ')).toBe('spaced.pdf');
    expect(uploadFileName('bad\ud800half.txt')).toBe('badhalf.txt');
    for (const empty of [undefined, '', '/', 'dir/', '..', '.', 'a/..', '\u0001\u0002', '   ']) expect(uploadFileName(empty)).toBe('upload');
  });

  it('caps at 200 code points without splitting a surrogate pair, keeping a short extension', () => {
    const emoji = uploadFileName('😀'.repeat(300));
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji).toBe('😀'.repeat(200));
    const thai = uploadFileName(`${'ก'.repeat(250)}.pdf`);
    expect(Array.from(thai)).toHaveLength(200);
    expect(thai.endsWith('ก.pdf')).toBe(true);
    expect(uploadFileName('a'.repeat(199) + '.' + 'b'.repeat(40))).toHaveLength(200);
  });
});

describe('limits, at and past each edge', () => {
  it('a file past maxFileBytes is too-large, with its name and the limit (413)', async () => {
    const upload = await start({ maxFileBytes: 1000 });
    const form = new FormData();
    form.append('files', new Blob(['fine']), 'small.txt');
    form.append('files', new Blob([filled(1001)]), 'big.pdf');
    const { status, result } = await post(upload, form);
    expect(status).toBe(413);
    expect(result).toEqual({ ok: false, failure: { code: 'too-large', limitBytes: 1000, fileName: 'big.pdf' } });
  });

  it('a declared Content-Length over maxTotalBytes is refused before the body is read, and the 413 arrives whole', async () => {
    const upload = await start({ maxTotalBytes: 16_000 });
    const served = upload.nextRequest();
    const answer = await rawRequest(upload.port, [uploadHead(multipartType, 100_000)], { keepSending: { chunk: Buffer.alloc(10_000, 120), max: 100_000 } });
    expect([answer.status, answer.end]).toEqual([413, 'answered']);
    expect(await (await served).result).toEqual({ ok: false, failure: { code: 'too-large', limitBytes: 16_000 } });
  });

  it('a chunked body is counted as it arrives: past maxTotalBytes it is too-large, naming the file being read', async () => {
    const upload = await start({ maxFileBytes: 1000, maxFiles: 100, maxTotalBytes: 5_000 });
    const served = upload.nextRequest();
    let index = 0;
    const part = (): Buffer => multipartBody(boundary, [{ name: 'files', filename: `part-${index++}.txt`, value: Buffer.alloc(900, 0x62) }], '');
    const parts = [uploadHead(multipartType, undefined), ...Array.from({ length: 5 }, () => chunkOf(part()))];
    const answer = await rawRequest(upload.port, parts, { keepSending: { chunk: chunkOf(Buffer.alloc(900, 0x62)), max: 1_000_000 } });
    expect(answer.status).toBe(413);
    expect(await (await served).result).toEqual({ ok: false, failure: { code: 'too-large', limitBytes: 5_000, fileName: 'part-4.txt' } });
  });

  it('maxFiles files pass; one more is too-many-files', async () => {
    const upload = await start({ maxFiles: 3 });
    const form = (count: number): FormData => {
      const data = new FormData();
      for (let file = 0; file < count; file += 1) data.append('files', new Blob([`file ${file}`]), `${file}.txt`);
      return data;
    };
    const three = await post(upload, form(3));
    expect([three.status, three.result.ok && three.result.files.length]).toEqual([200, 3]);
    const four = await post(upload, form(4));
    expect([four.status, four.result]).toEqual([413, { ok: false, failure: { code: 'too-many-files' } }]);
  });

  it('fields: maxFields of maxFieldBytes pass; one more field, one byte more, or a repeated name fail', async () => {
    const upload = await start({ maxFields: 3, maxFieldBytes: 64 });
    const form = (entries: [string, string][]): FormData => {
      const data = new FormData();
      for (const [name, value] of entries) data.append(name, value);
      return data;
    };
    const full = 'ก'.repeat(21) + 'x'; // 64 bytes of UTF-8
    const fitting = await post(
      upload,
      form([
        ['csrf', 't'],
        ['title', full],
        ['__proto__', 'p'],
      ]),
    );
    expect(fitting.status).toBe(200);
    expect(fitting.result.ok && { ...fitting.result.fields }).toEqual({ csrf: 't', title: full, ['__proto__']: 'p' });
    const tooMany = await post(
      upload,
      form([
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
        ['d', '4'],
      ]),
    );
    expect([tooMany.status, tooMany.result]).toEqual([413, { ok: false, failure: { code: 'too-many-fields' } }]);
    const tooBig = await post(upload, form([['title', `${full}y`]]));
    expect([tooBig.status, tooBig.result]).toEqual([413, { ok: false, failure: { code: 'too-large', limitBytes: 64, fieldName: 'title' } }]);
    const twice = await post(
      upload,
      form([
        ['csrf', 'a'],
        ['csrf', 'b'],
      ]),
    );
    expect([twice.status, twice.result]).toEqual([400, { ok: false, failure: { code: 'bad-form' } }]);
  });
});

describe('bodies no browser sends', () => {
  const good = multipartBody(boundary, [{ name: 'files', filename: 'a.txt', value: 'hello' }]);
  const cases: { label: string; type: string | undefined; body: Buffer; code: string }[] = [
    { label: 'no Content-Type', type: undefined, body: good, code: 'not-multipart' },
    { label: 'text/plain', type: 'text/plain', body: good, code: 'not-multipart' },
    { label: 'url-encoded', type: 'application/x-www-form-urlencoded', body: Buffer.from('a=1'), code: 'not-multipart' },
    { label: 'multipart/mixed', type: `multipart/mixed; boundary=${boundary}`, body: good, code: 'not-multipart' },
    { label: 'no boundary', type: 'multipart/form-data', body: good, code: 'bad-form' },
    { label: 'an empty boundary', type: 'multipart/form-data; boundary=', body: good, code: 'bad-form' },
    { label: 'an empty body', type: multipartType, body: Buffer.alloc(0), code: 'bad-form' },
    { label: 'garbage', type: multipartType, body: Buffer.from('\u0000\u00ff garbage, no boundary at all'.repeat(20), 'latin1'), code: 'bad-form' },
    { label: 'another boundary', type: 'multipart/form-data; boundary=other', body: good, code: 'bad-form' },
    { label: 'no closing boundary', type: multipartType, body: good.subarray(0, good.length - 8), code: 'bad-form' },
    { label: 'cut inside a part header', type: multipartType, body: good.subarray(0, 30), code: 'bad-form' },
    {
      label: 'a malformed part header',
      type: multipartType,
      body: multipartBody(boundary, [{ headers: 'Content-Disposition form-data; name="a"\r\n', value: 'x' }]),
      code: 'bad-form',
    },
    { label: 'a field without a name', type: multipartType, body: multipartBody(boundary, [{ value: 'nameless' }]), code: 'bad-form' },
  ];

  it.each(cases)('$label → $code, answered', async ({ type, body, code }) => {
    const upload = await start();
    const { status, result } = await postRaw(upload, [uploadHead(type, body.length), body]);
    expect(result).toEqual({ ok: false, failure: { code } });
    expect(status).toBe(code === 'not-multipart' ? 415 : 400);
  });

  it('parts without a form-data disposition are skipped, not failed', async () => {
    const upload = await start();
    const body = multipartBody(boundary, [
      { headers: 'Content-Type: text/plain\r\n', value: 'no disposition' },
      { name: 'csrf', value: 't' },
    ]);
    const { status, result } = await postRaw(upload, [uploadHead(multipartType, body.length), body]);
    expect([status, result]).toEqual([200, { ok: true, fields: { csrf: 't' }, files: [] }]);
  });

  it('a client that disconnects mid-body is aborted', async () => {
    const upload = await start();
    const served = upload.nextRequest();
    const socket = net.connect(upload.port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(uploadHead(multipartType, good.length) + good.subarray(0, 40).toString('latin1'));
    await served;
    socket.destroy();
    expect(await (await served).result).toEqual({ ok: false, failure: { code: 'aborted' } });
  });

  it('a body that stops halfway is too-slow once timeoutMs passed (408), whatever the clock', async () => {
    const upload = await start({ timeoutMs: 200 });
    const { status, result } = await postRaw(upload, [uploadHead(multipartType, good.length), good.subarray(0, good.length / 2)]);
    expect([status, result]).toEqual([408, { ok: false, failure: { code: 'too-slow' } }]);
  });
});
