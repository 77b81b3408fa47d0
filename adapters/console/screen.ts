import { clearScreenDown, cursorTo, moveCursor } from 'node:readline';
import type { Interface } from 'node:readline/promises';
import { fitLiveBlock, type LiveBlock } from './live-block.js';
import type { StatusSurface } from './status-line.js';

// Who writes to the terminal: replies, notes, log lines and the status line all go through here, so none lands in
// the middle of the prompt. On a terminal the bottom line is the prompt (with what the user has typed so far) or,
// while a turn runs, its status line in the prompt's place; anything printed goes above it and it is drawn again.
// A streamed answer (a terminal only) is a block of lines just above that line, redrawn as it grows and rubbed out
// for the final reply.

const promptText = '> ';

export class ConsoleScreen implements StatusSurface {
  private bottom: 'nothing' | 'prompt' | 'status' = 'nothing';
  private status = '';
  private open = true;
  /** A pipe: the last thing written is the prompt, with no line end after it yet. */
  private promptLineOpen = false;
  /** The streamed answer drawn above the bottom line, if any. */
  private live: LiveBlock | undefined;

  constructor(
    private readonly lines: Interface,
    private readonly output: NodeJS.WritableStream,
    /** A terminal (readline draws and edits the line) rather than a pipe. */
    private readonly terminal: boolean,
  ) {
    lines.setPrompt(promptText);
    lines.on('close', () => (this.open = false));
  }

  /** Writes `text` (whole lines) above the prompt or status line, then draws that line again. */
  print(text: string, stream: NodeJS.WritableStream = this.output): void {
    if (!this.open) {
      stream.write(text);
      return;
    }
    if (this.terminal) this.printAboveLine(text, stream);
    else this.printAfterPrompt(text, stream);
  }

  /** Ready for the next line: the prompt, or the running turn's status when there is one. */
  ready(): void {
    if (this.bottom !== 'status') this.bottom = 'prompt';
    this.redraw();
  }

  /** The user pressed Enter: readline moved to a fresh line, so the prompt is gone; a status line comes back. */
  entered(): void {
    if (this.bottom === 'prompt') this.bottom = 'nothing';
    else if (this.bottom === 'status') this.redraw();
  }

  showStatus(text: string): void {
    if (!this.terminal) {
      this.print(`${text}\n`);
      return;
    }
    this.status = text;
    this.bottom = 'status';
    this.redraw();
  }

  clearStatus(): void {
    if (!this.terminal || this.bottom !== 'status') return;
    if (this.open) this.erase();
    this.bottom = 'nothing';
    this.lines.setPrompt(promptText);
  }

  /** Shows the streamed answer (rendered terminal text) above the bottom line, in place of the previous one. */
  showLive(rendered: string): void {
    if (!this.terminal || !this.open) return;
    const block = fitLiveBlock(rendered, this.columns(), this.screenRows() - 2);
    const rows = this.eraseWithLive();
    this.live = block;
    if (block) this.output.write(block.text);
    this.giveBackRows(rows);
  }

  /** Rubs out the streamed answer (the final reply is printed in its place). */
  clearLive(): void {
    if (!this.terminal || !this.open || !this.live) return;
    const rows = this.eraseWithLive();
    this.live = undefined;
    this.giveBackRows(rows);
  }

  private printAboveLine(text: string, stream: NodeJS.WritableStream): void {
    // Nothing drawn and nothing typed: the cursor is at the start of an empty line already.
    if (this.bottom === 'nothing' && this.lines.line === '' && !this.live) {
      stream.write(text);
      return;
    }
    // The streamed answer stays the last thing above the bottom line.
    const rows = this.eraseWithLive();
    stream.write(text);
    if (this.live) this.output.write(this.live.text);
    // readline redraws from `rows` rows above the cursor: give it those rows below the text (it clears them).
    if (rows > 0) this.output.write('\n'.repeat(rows));
    if (this.bottom === 'nothing') this.bottom = 'prompt';
    this.redraw();
  }

  private printAfterPrompt(text: string, stream: NodeJS.WritableStream): void {
    // A pipe cannot rub out the prompt: end its line, and write the prompt again below the text.
    if (this.promptLineOpen && !text.startsWith('\n')) this.output.write('\n');
    this.promptLineOpen = false;
    stream.write(text);
    this.redraw();
  }

  /** Rubs out the bottom line and the streamed answer above it; the rows the cursor was below the bottom line's start. */
  private eraseWithLive(): number {
    const rows = this.erase();
    if (this.live) {
      moveCursor(this.output, 0, -this.live.rows);
      clearScreenDown(this.output);
    }
    return rows;
  }

  /** readline redraws from `rows` rows above the cursor: give it those rows (it clears them), then draw the line. */
  private giveBackRows(rows: number): void {
    if (rows > 0) this.output.write('\n'.repeat(rows));
    this.redraw();
  }

  private columns(): number {
    return 'columns' in this.output && typeof this.output.columns === 'number' && this.output.columns > 0 ? this.output.columns : 80;
  }

  private screenRows(): number {
    return 'rows' in this.output && typeof this.output.rows === 'number' && this.output.rows > 4 ? this.output.rows : 24;
  }

  /** Rubs out the bottom line (every row of it, when the typed text wraps); the rows the cursor was below its start. */
  private erase(): number {
    const { rows } = this.lines.getCursorPos();
    if (rows > 0) moveCursor(this.output, 0, -rows);
    cursorTo(this.output, 0);
    clearScreenDown(this.output);
    return rows;
  }

  private redraw(): void {
    if (!this.open || this.bottom === 'nothing') return;
    if (!this.terminal) {
      if (this.bottom !== 'prompt') return;
      this.lines.prompt();
      this.promptLineOpen = true;
      return;
    }
    this.lines.setPrompt(this.bottom === 'status' ? `${this.status} ` : promptText);
    // Keeps the cursor where the user was in the typed text.
    this.lines.prompt(true);
  }
}
