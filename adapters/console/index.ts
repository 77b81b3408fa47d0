import type { PlatformAdapter, PlatformCapabilities } from '../../src/shared/channel.js';
import type { Language } from '../../src/shared/types.js';
import { startConsoleChat, type ConsoleChat } from './chat.js';
import { downloadConsoleFile } from './download.js';
import { consoleLogOutput } from './log-output.js';
import { consoleResponder, surfaceResponder } from './outbound.js';

// The console adapter's face: the interactive chat as a PlatformAdapter, plus the pieces `npm run cli` uses
// (it normalizes one message and renders the replies without starting a chat).
export { consoleMessage, consoleSpaceKey, type ConsoleMessageOptions } from './inbound.js';
export { consoleResponder, renderConsoleReply, surfaceResponder, type ConsoleSurface } from './outbound.js';

/** A terminal: no length limit; Markdown is rendered for it (adapters/console/render.ts). */
export const consoleCapabilities: PlatformCapabilities = {
  maxTextChars: Number.POSITIVE_INFINITY,
  maxMessagesPerReply: Number.POSITIVE_INFINITY,
  markup: 'markdown',
  typingIndicator: false,
  canEdit: false,
  sendsFiles: false,
};

export interface ConsoleAdapterOptions {
  /** Who types at the console (the owner, a global admin). */
  userId: string;
  language: Language;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Where log lines go (default: stderr), printed above the prompt while the chat runs. */
  errorOutput?: NodeJS.WritableStream;
  /** Readline draws and edits the line (default: the input is the process's TTY stdin). */
  terminal?: boolean;
  /** MAX_ATTACHMENT_BYTES: `/attach` refuses a larger file at once. */
  maxAttachmentBytes?: number;
}

export interface ConsoleAdapter extends PlatformAdapter {
  /** Resolves when the chat ends: /exit, Ctrl-C at the prompt, end of input, or stop(). */
  readonly closed: Promise<void>;
  /** The logger's destination in console mode: lines are printed above the prompt, never across it. */
  readonly logOutput: NodeJS.WritableStream;
}

export function createConsoleAdapter(options: ConsoleAdapterOptions): ConsoleAdapter {
  let chat: ConsoleChat | undefined;
  let ended: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const output = options.output ?? process.stdout;
  const errorOutput = options.errorOutput ?? process.stderr;
  return {
    platform: 'console',
    capabilities: consoleCapabilities,
    closed,
    logOutput: consoleLogOutput((text) => (chat ? chat.surface.print(text, errorOutput) : errorOutput.write(text))),
    start: async (handler) => {
      if (chat) throw new Error('the console adapter is already started');
      chat = startConsoleChat({ ...options, output, handler });
      void chat.done.then(ended, ended);
      // A terminal has no bot username: `/cmd@anything` stays ours.
      return {};
    },
    stop: async () => {
      chat?.close();
      await chat?.done;
    },
    // Also answers a console message stored before a restart: it is written to this terminal.
    // Before start (`npm run cli`, a test app): plain writes to the output.
    responderFor: () => (chat ? surfaceResponder(chat.surface, options.language) : consoleResponder(output, () => undefined, options.language)),
    download: downloadConsoleFile,
  };
}
