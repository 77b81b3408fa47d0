import readline from 'node:readline/promises';
import { pick, type Localized } from '../../src/shared/i18n.js';
import type { MessageRouter } from '../../src/router.js';
import type { Language } from '../../src/shared/types.js';
import { consoleMessage } from './inbound.js';
import { renderConsoleReply } from './outbound.js';
import { describeError } from '../../src/shared/describe-error.js';

const welcome: Localized = {
  th: 'แสง (Saeng) พร้อมคุยแล้ว พิมพ์คำถามได้เลย /help ดูคำสั่ง, /attach <ไฟล์> แนบไฟล์กับข้อความถัดไป, /exit ออก',
  en: 'Saeng is ready. Type a question; /help lists commands, /attach <file> attaches a file to the next message, /exit quits.',
};
const attached: Localized = { th: 'แนบไฟล์แล้ว: ', en: 'Attached: ' };

export interface ConsoleChatOptions {
  router: MessageRouter;
  userId: string;
  language: Language;
  maxAttachmentBytes: number;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

/** The interactive console chat: the same router, agent and guards as every platform. */
export async function runConsoleChat(options: ConsoleChatOptions): Promise<void> {
  const output = options.output ?? process.stdout;
  const lines = readline.createInterface({ input: options.input ?? process.stdin, output, terminal: Boolean((options.input ?? process.stdin) === process.stdin && process.stdin.isTTY) });
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
      const message = await consoleMessage({
        text,
        attachmentPaths: pendingAttachments,
        userId: options.userId,
        maxAttachmentBytes: options.maxAttachmentBytes,
      });
      pendingAttachments = [];
      await options.router.handle(message, {
        send: async (reply) => {
          output.write(`\n${renderConsoleReply(reply)}\n\n`);
        },
        progress: async (event) => {
          output.write(`… ${event.text}\n`);
        },
      });
    } catch (error) {
      pendingAttachments = [];
      output.write(`! ${describeError(error)}\n`);
    }
    lines.prompt();
  }
  lines.close();
}
