// A read cursor over UTF-8 bytes, as Telegram's parsers walk a message: error offsets are byte offsets, entity
// offsets UTF-16 code units. Reading past the end gives 0, like the NUL-terminated buffer the server reads.

export class Utf8Cursor {
  readonly bytes: Buffer;
  private readonly output: number[] = [];
  /** UTF-16 length of the output so far. */
  utf16Length = 0;

  constructor(text: string) {
    this.bytes = Buffer.from(text, 'utf8');
  }

  at(index: number): number {
    return this.bytes[index] ?? 0;
  }

  char(index: number): string {
    return String.fromCharCode(this.at(index));
  }

  get size(): number {
    return this.bytes.length;
  }

  /** Copies one input byte to the output. */
  copyByte(byte: number): void {
    this.output.push(byte);
    // A lead byte starts a character; four-byte characters are surrogate pairs in UTF-16.
    if ((byte & 0xc0) !== 0x80) this.utf16Length += byte >= 0xf0 ? 2 : 1;
  }

  appendCodePoint(codePoint: number): void {
    for (const byte of Buffer.from(String.fromCodePoint(codePoint), 'utf8')) this.copyByte(byte);
  }

  outputByteLength(): number {
    return this.output.length;
  }

  outputText(fromByte = 0): string {
    return Buffer.from(this.output.slice(fromByte)).toString('utf8');
  }
}

export function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d || byte === 0x0b || byte === 0x0c || byte === 0;
}

export function isAsciiLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

export function isAsciiDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}
