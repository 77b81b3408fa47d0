import type { Reply } from '../../src/shared/types.js';

/** Renders a reply for a terminal: Markdown as typed, then the attached files by path. */
export function renderConsoleReply(reply: Reply): string {
  const lines = [reply.text];
  for (const file of reply.files) lines.push(`📎 ${file.name} → ${file.path}`);
  return lines.join('\n');
}
