import readline from 'node:readline/promises';
import type { InboundHandler } from '../../src/shared/channel.js';
import { describeError } from '../../src/shared/describe-error.js';
import { pick, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { consoleMessage } from './inbound.js';

const welcome: Localized = {
  th: 'แสง (Saeng) พร้อมคุยแล้ว พิมพ์คำถามได้เลย /help ดูคำสั่ง, /attach <ไฟล์> แนบไฟล์กับข้อความถัดไป, /exit ออก',
  en: 'Saeng is ready. Type a question; /help lists commands, /attach <file> attaches a file to the next message, /exit quits.',
};
const attached: Localized = { th: 'แนบไฟล์แล้ว: ', en: 'Attached: ' };

export interface ConsoleChatOptions {
  handler: InboundHandler;
  userId: string;
  language: Language;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

export interface ConsoleChat {
  /** Resolves when the chat has ended (/exit, end of input, or close()) and its last message is stored. */
  done: Promise<void>;
  close(): void;
  /** Shows the prompt again (after a reply was written). */
  prompt(): void;
}

/** The interactive console chat: the same inbound queue, router, agent and guards as every platform. */
export function startConsoleChat(options: ConsoleChatOptions): ConsoleChat {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const lines = readline.createInterface({ input, output, terminal: Boolean(input === process.stdin && process.stdin.isTTY) });
  let open = true;
  lines.on('close', () => (open = false));
  return { done: converse(lines, options, output), close: () => lines.close(), prompt: () => open && lines.prompt() };
}

async function converse(lines: readline.Interface, options: ConsoleChatOptions, output: NodeJS.WritableStream): Promise<void> {
  output.write(`${pick(welcome, options.language)}\n`);
  let pendingAttachments: string[] = [];
  lines.setPrompt('> ');
  lines.prompt();
  for await (const line of lines) {
    const text = line.trim();
    if (text === '/exit' || text === '/quit') break;
    if (text.startsWith('/attach ')) {
      pendingAttachments.push(text.slice('/attach '.length).trim());
      output.write(`${pick(attached, options.language)}${pendingAttachments.join(', ')}\n`);
      lines.prompt();
      continue;
    }
    if (text === '' && pendingAttachments.length === 0) {
      lines.prompt();
      continue;
    }
    try {
      const message = await consoleMessage({ text, attachmentPaths: pendingAttachments, userId: options.userId });
      pendingAttachments = [];
      // Stored, not answered yet: the reply arrives through the adapter's responder, which prompts again.
      await options.handler.accept(message);
    } catch (error) {
      pendingAttachments = [];
      output.write(`! ${describeError(error)}\n`);
      lines.prompt();
    }
  }
  lines.close();
}
