import { crc32, deflateRawSync } from 'node:zlib';

// Office files that are small on the wire and huge inside, written with node:zlib (a ZIP is local headers, the
// deflated entries, then the central directory). `declaredSize` lets an entry lie about its size, as a bomb may.

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** The uncompressed size written in the headers (default: the true one). */
  declaredSize?: number;
}

export function zipFile(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data) >>> 0;
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const packageRelationships = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** A DOCX whose body is `body` (WordprocessingML inside <w:body>). */
export function docxWithBody(body: string, declaredSize?: number): Buffer {
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  const data = Buffer.from(document, 'utf8');
  return zipFile([
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(packageRelationships) },
    { name: 'word/document.xml', data, ...(declaredSize === undefined ? {} : { declaredSize }) },
  ]);
}

/** A plain DOCX of these paragraphs. */
export function plainDocx(paragraphs: readonly string[]): Buffer {
  return docxWithBody(paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join(''));
}

/**
 * Millions of one-letter runs: a few hundred KB that mammoth turns into millions of objects (V8 ran out of its
 * 256 MB heap on one of 298 KB). `declaredSize` may hide the true size from a central-directory check.
 */
export function hostileDocx(runs = 3_000_000, declaredSize?: number): Buffer {
  const paragraph = `<w:p>${'<w:r><w:t>ก</w:t></w:r>'.repeat(100)}</w:p>`;
  return docxWithBody(paragraph.repeat(Math.ceil(runs / 100)), declaredSize);
}

/**
 * The same, with every run's letters varied so it deflates only about as well as ordinary Word XML: it passes the
 * ZIP directory's ratio check, and only the worker's heap cap stops it.
 */
export function hostileVariedDocx(runs = 1_500_000): Buffer {
  let seed = 7;
  const letter = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return String.fromCharCode(0x0e01 + (seed % 46));
  };
  const parts: string[] = [];
  for (let index = 0; index < runs; index += 1) {
    parts.push(`${index % 100 === 0 ? '<w:p>' : ''}<w:r><w:t>${letter()}${letter()}</w:t></w:r>${index % 100 === 99 ? '</w:p>' : ''}`);
  }
  if (runs % 100 !== 0) parts.push('</w:p>');
  return docxWithBody(parts.join(''));
}
