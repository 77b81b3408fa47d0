// Servers run with `--reasoning-format none` (or templates the server does not parse) put the model's thinking in
// `content` as <think>…</think>. This splits streamed text into visible and hidden parts; a tag may arrive split
// across chunks, so a possible tag start is held back until the next chunk decides it.

export const openThinkTag = '<think>';
export const closeThinkTag = '</think>';

export interface SplitText {
  visible: string;
  hidden: string;
}

export class ThinkSplitter {
  private inThink = false;
  private pending = '';

  push(text: string): SplitText {
    this.pending += text;
    const out: SplitText = { visible: '', hidden: '' };
    for (;;) {
      const tag = this.inThink ? closeThinkTag : openThinkTag;
      const found = this.pending.indexOf(tag);
      if (found < 0) break;
      this.emit(out, this.pending.slice(0, found));
      this.pending = this.pending.slice(found + tag.length);
      this.inThink = !this.inThink;
    }
    const held = partialTagLength(this.pending, this.inThink ? closeThinkTag : openThinkTag);
    this.emit(out, this.pending.slice(0, this.pending.length - held));
    this.pending = this.pending.slice(this.pending.length - held);
    return out;
  }

  /** End of stream: held text goes where it was heading (an unclosed <think> stays hidden). */
  flush(): SplitText {
    const out: SplitText = { visible: '', hidden: '' };
    this.emit(out, this.pending);
    this.pending = '';
    return out;
  }

  private emit(out: SplitText, text: string): void {
    if (this.inThink) out.hidden += text;
    else out.visible += text;
  }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialTagLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(tag.slice(0, length))) return length;
  }
  return 0;
}

/**
 * The visible part of a whole answer (helper completions: relevance checks, JSON extraction). Same rules as the
 * stream, so a helper answer and a chat answer are read alike: closed <think> blocks go, an unclosed one hides the
 * rest, and text before an orphan `</think>` is thinking (templates that open <think> in the prompt). Unlike the
 * stream, tags match in any letter case: nothing here is shown to the user, so hiding more is the safe side.
 * One pass with indexOf (a lazy regex is quadratic on unclosed tags).
 */
export function stripThinking(text: string): string {
  const folded = asciiLowerCase(text);
  let visible = '';
  let position = 0;
  for (;;) {
    const start = folded.indexOf(openThinkTag, position);
    if (start < 0) {
      visible += text.slice(position);
      break;
    }
    visible += text.slice(position, start);
    const end = folded.indexOf(closeThinkTag, start + openThinkTag.length);
    if (end < 0) break;
    position = end + closeThinkTag.length;
  }
  const orphanClose = asciiLowerCase(visible).indexOf(closeThinkTag);
  if (orphanClose >= 0) visible = visible.slice(orphanClose + closeThinkTag.length);
  return visible.trim();
}

/** Lower-cases A–Z only, so every index stays valid in the original text (full case folding can change lengths). */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}
