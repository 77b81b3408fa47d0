import type { LiveAnswer, Responder, RunningTurn } from '../../src/shared/channel.js';
import type { Language, Reply, TurnStep } from '../../src/shared/types.js';
import { capConsoleText } from '../format/index.js';
import { consoleLiveAnswer } from './live-answer.js';
import { renderTerminalText, type TerminalTextOptions } from './render.js';

/** Renders a reply for a terminal: Markdown rendered (ANSI styles only with `color`), then the attached files by path. */
export function renderConsoleReply(reply: Reply, options: TerminalTextOptions = { color: false }, language: Language = 'th'): string {
  const lines = [renderTerminalText(capConsoleText(reply.text, language), options)];
  for (const file of reply.files) lines.push(`📎 ${file.name} → ${file.path}`);
  return lines.join('\n');
}

/** Where a console responder writes: the running chat's screen (adapters/console/chat.ts), or a bare stream. */
export interface ConsoleSurface {
  /** Writes whole lines where the user reads them (above the prompt); `stream`: another stream of the same terminal. */
  print(text: string, stream?: NodeJS.WritableStream): void;
  /** Shows the prompt again (after a reply). */
  ready(): void;
  /** Shows the running turn's status line and takes its cancel (Ctrl-C). */
  working?(turn: RunningTurn): () => void;
  step?(step: TurnStep): void;
  /** How replies are drawn here: colour on a terminal, its width (default: plain, unwrapped). */
  textOptions?(): TerminalTextOptions;
  /** A terminal only: draws the streamed answer in place above the prompt; absent on a pipe, which streams nothing. */
  showLive?(rendered: string): void;
  /** Rubs the streamed answer out (the reply is printed in its place). */
  clearLive?(): void;
}

/** Writes replies to the terminal, one part each (a terminal has no length limit), then shows the prompt again. */
export function consoleResponder(output: NodeJS.WritableStream, prompt: () => void, language: Language = 'th'): Responder {
  return surfaceResponder({ print: (text) => void output.write(text), ready: prompt }, language);
}

/** The same, through a surface: the status line, Ctrl-C, and nothing written across the prompt. */
export function surfaceResponder(surface: ConsoleSurface, language: Language = 'th'): Responder {
  let live: LiveAnswer | undefined;
  const { showLive } = surface;
  return {
    send: async (reply, journal) => {
      await live?.end();
      surface.clearLive?.();
      if (journal.isSent(0)) return;
      await journal.sending(0);
      surface.print(`\n${renderConsoleReply(reply, surface.textOptions?.(), language)}\n\n`);
      await journal.sent(0);
      surface.ready();
    },
    progress: async (event) => {
      surface.print(`… ${event.text}\n`);
    },
    working: (turn) => surface.working?.(turn) ?? (() => undefined),
    step: (turnStep) => surface.step?.(turnStep),
    ...(showLive
      ? {
          live: () => {
            live = consoleLiveAnswer(
              { showLive: (rendered) => showLive.call(surface, rendered), textOptions: () => surface.textOptions?.() ?? { color: false } },
              language,
            );
            return live;
          },
        }
      : {}),
  };
}
