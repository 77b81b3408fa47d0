import readline from 'node:readline/promises';
import type { InboundHandler, RunningTurn } from '../../src/shared/channel.js';
import type { TerminalTextOptions } from './render.js';
import { describeError } from '../../src/shared/describe-error.js';
import { pick, say, type Localized } from '../../src/shared/i18n.js';
import type { Language, TurnStep } from '../../src/shared/types.js';
import { checkAttachment } from './attach-path.js';
import { consoleMessage } from './inbound.js';
import type { ConsoleSurface } from './outbound.js';
import { ConsoleScreen } from './screen.js';
import { TurnStatus } from './status-line.js';

const welcome: Localized = {
  th: 'แสง (Saeng) พร้อมคุยแล้ว พิมพ์คำถามได้เลย /help ดูคำสั่ง, /attach <ไฟล์> แนบไฟล์กับข้อความถัดไป, Ctrl-C ยกเลิกคำตอบที่กำลังทำ, /exit ออก',
  en: 'Saeng is ready. Type a question; /help lists commands, /attach <file> attaches a file to the next message, Ctrl-C cancels an answer in progress, /exit quits.',
};
const attached: Localized = { th: 'แนบไฟล์แล้ว: ', en: 'Attached: ' };
const notSent: Localized = { th: 'ส่งข้อความไม่ได้: {problem}', en: 'The message was not sent: {problem}' };

export interface ConsoleChatOptions {
  handler: InboundHandler;
  userId: string;
  language: Language;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Readline draws and edits the line (default: the input is the process's TTY stdin). */
  terminal?: boolean;
  /** MAX_ATTACHMENT_BYTES: a larger file is refused at `/attach`. */
  maxAttachmentBytes?: number;
}

export interface ConsoleChat {
  /** Resolves when the chat has ended (/exit, Ctrl-C, end of input, or close()) and its last message is stored. */
  done: Promise<void>;
  close(): void;
  /** Where replies, notes and log lines are written (above the prompt) and the running turn is shown. */
  surface: ConsoleSurface;
}

interface ShownTurn {
  turn: RunningTurn;
  status: TurnStatus;
  cancelled: boolean;
}

/** The interactive console chat: the same inbound queue, router, agent and guards as every platform. */
export function startConsoleChat(options: ConsoleChatOptions): ConsoleChat {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const terminal = options.terminal ?? Boolean(input === process.stdin && process.stdin.isTTY);
  const lines = readline.createInterface({ input, output, terminal });
  const screen = new ConsoleScreen(lines, output, terminal);
  let running: ShownTurn | undefined;

  // On a terminal in raw mode Ctrl-C reaches us here, not as a process signal: the first one during a turn cancels
  // it, any other quits (the service's SIGINT shutdown stays for runs without a terminal).
  lines.on('SIGINT', () => {
    if (running && !running.cancelled) {
      running.cancelled = true;
      running.status.cancelling();
      running.turn.cancel();
      return;
    }
    lines.close();
  });

  const surface: ConsoleSurface = {
    print: (text, stream) => screen.print(text, stream),
    ready: () => screen.ready(),
    working: (turn) => {
      const shown: ShownTurn = { turn, status: new TurnStatus({ surface: screen, language: options.language, live: terminal }), cancelled: false };
      running = shown;
      shown.status.start();
      return () => {
        shown.status.stop();
        if (running === shown) running = undefined;
      };
    },
    step: (step: TurnStep) => running?.status.stepped(step),
    textOptions: () => terminalTextOptions(output, terminal),
    // Streaming only where lines can be redrawn: a pipe (a test, a log) gets the final reply alone, as before.
    ...(terminal ? { showLive: (rendered: string) => screen.showLive(rendered), clearLive: () => screen.clearLive() } : {}),
  };
  return { done: converse(lines, screen, options), close: () => lines.close(), surface };
}

async function converse(lines: readline.Interface, screen: ConsoleScreen, options: ConsoleChatOptions): Promise<void> {
  const { language } = options;
  screen.print(`${pick(welcome, language)}\n`);
  screen.ready();
  let pendingAttachments: string[] = [];
  for await (const line of lines) {
    screen.entered();
    const text = line.trim();
    if (text === '/exit' || text === '/quit') break;
    if (text === '/attach' || text.startsWith('/attach ')) {
      const checked = await checkAttachment(text.slice('/attach'.length).trim(), { language, maxBytes: options.maxAttachmentBytes });
      if (checked.ok) pendingAttachments.push(checked.path);
      screen.print(checked.ok ? `${pick(attached, language)}${pendingAttachments.join(', ')}\n` : `${checked.problem}\n`);
      screen.ready();
      continue;
    }
    if (text === '' && pendingAttachments.length === 0) {
      screen.ready();
      continue;
    }
    try {
      const message = await consoleMessage({ text, attachmentPaths: pendingAttachments, userId: options.userId });
      pendingAttachments = [];
      // Stored, not answered yet: the reply arrives through the adapter's responder, which shows the prompt again.
      await options.handler.accept(message);
    } catch (error) {
      pendingAttachments = [];
      screen.print(`${say(notSent, language, { problem: describeError(error) })}\n`);
      screen.ready();
    }
  }
  lines.close();
}

/** Colour only on a real terminal that has not asked for none (NO_COLOR); wrapped to its width when it has one. */
function terminalTextOptions(output: NodeJS.WritableStream, terminal: boolean): TerminalTextOptions {
  const columns = 'columns' in output && typeof output.columns === 'number' ? output.columns : undefined;
  return { color: terminal && !process.env.NO_COLOR, ...(terminal && columns ? { width: columns } : {}) };
}
