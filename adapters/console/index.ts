import type { PlatformAdapter, PlatformCapabilities } from '../../src/shared/channel.js';
import type { Language } from '../../src/shared/types.js';
import { startConsoleChat, type ConsoleChat } from './chat.js';
import { downloadConsoleFile } from './download.js';
import { consoleResponder } from './outbound.js';

// The console adapter's face: the interactive chat as a PlatformAdapter, plus the pieces `npm run cli` uses
// (it normalizes one message and renders the replies without starting a chat).
export { consoleMessage, consoleSpaceKey, type ConsoleMessageOptions } from './inbound.js';
export { consoleResponder, renderConsoleReply } from './outbound.js';

/** A terminal: no length limit, Markdown shown as typed. */
export const consoleCapabilities: PlatformCapabilities = {
  maxTextChars: Number.POSITIVE_INFINITY,
  maxMessagesPerReply: Number.POSITIVE_INFINITY,
  markup: 'markdown',
  typingIndicator: false,
  canEdit: false,
};

export interface ConsoleAdapterOptions {
  /** Who types at the console (the owner, a global admin). */
  userId: string;
  language: Language;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

export interface ConsoleAdapter extends PlatformAdapter {
  /** Resolves when the chat ends: /exit, end of input, or stop(). */
  readonly closed: Promise<void>;
}

export function createConsoleAdapter(options: ConsoleAdapterOptions): ConsoleAdapter {
  let chat: ConsoleChat | undefined;
  let ended: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (ended = resolve));
  const output = options.output ?? process.stdout;
  return {
    platform: 'console',
    capabilities: consoleCapabilities,
    closed,
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
    responderFor: () => consoleResponder(output, () => chat?.prompt()),
    download: downloadConsoleFile,
  };
}
