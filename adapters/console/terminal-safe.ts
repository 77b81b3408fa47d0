// The model's text must not drive the terminal: an ESC, a CSI (U+009B) or a carriage return in an answer would
// recolour, move the cursor or overwrite the prompt. Control characters are shown as their visible pictures
// (␛, ␍ …), tabs as spaces so columns can be measured; only newlines pass.

const tab = '    ';

function visible(code: number): string {
  if (code === 0x09) return tab;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
}

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/** `text` with every control character except the newline made visible; unchanged when it has none. */
export function showControls(text: string): string {
  let result = '';
  let plainFrom = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (!isControl(code)) continue;
    result += text.slice(plainFrom, index) + visible(code);
    plainFrom = index + 1;
  }
  return plainFrom === 0 ? text : result + text.slice(plainFrom);
}
