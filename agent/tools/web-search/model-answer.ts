// Reasoning models sometimes leak `<think>…</think>` into the visible answer; helper prompts ignore it.
// (Scanned with indexOf rather than a lazy regex, which is quadratic on unclosed tags.)

const open = '<think>';
const close = '</think>';

export function stripThinking(answer: string): string {
  let text = answer;
  for (let guard = 0; guard < 20; guard += 1) {
    const start = text.toLowerCase().indexOf(open);
    if (start < 0) return text;
    const end = text.toLowerCase().indexOf(close, start + open.length);
    // An unclosed block: everything after it is thinking.
    text = end < 0 ? text.slice(0, start) : text.slice(0, start) + text.slice(end + close.length);
  }
  return text;
}
