import type { Responder } from '../../src/shared/channel.js';
import type { Reply } from '../../src/shared/types.js';

/** Renders a reply for a terminal: Markdown as typed, then the attached files by path. */
export function renderConsoleReply(reply: Reply): string {
  const lines = [reply.text];
  for (const file of reply.files) lines.push(`📎 ${file.name} → ${file.path}`);
  return lines.join('\n');
}

/** Writes replies to the terminal, one part each (a terminal has no length limit), then shows the prompt again. */
export function consoleResponder(output: NodeJS.WritableStream, prompt: () => void): Responder {
  return {
    send: async (reply, journal) => {
      if (journal.isSent(0)) return;
      await journal.sending(0);
      output.write(`\n${renderConsoleReply(reply)}\n\n`);
      await journal.sent(0);
      prompt();
    },
    progress: async (event) => {
      output.write(`… ${event.text}\n`);
    },
  };
}
