// Thai digits ๐–๙ (U+0E50–U+0E59). JS `\d`, `Number()` and SQLite do not understand them, so every parser of
// figures, search terms or credentials converts them first.

const thaiDigitZero = 0x0e50;

/** ๐–๙ → 0–9, one character for one, so offsets into the text stay valid. */
export function thaiDigitsToAscii(text: string): string {
  if (!/[๐-๙]/.test(text)) return text;
  let out = '';
  let copiedTo = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < thaiDigitZero || code > thaiDigitZero + 9) continue;
    out += text.slice(copiedTo, index) + String.fromCharCode(48 + code - thaiDigitZero);
    copiedTo = index + 1;
  }
  return out + text.slice(copiedTo);
}
