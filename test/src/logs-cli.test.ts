import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// `npm run logs -- --stdin` formats a log piped in, line by line, as `npm run logs` formats pm2's.

function formatThroughCli(input: string): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/logs-cli.ts', '--stdin'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stdin.end(input);
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

describe('npm run logs -- --stdin', () => {
  it('prints the bot’s JSON lines pretty and the rest as it came', async () => {
    const bot = JSON.stringify({ level: 40, time: 0, pid: 1, hostname: 'h', warning: 'telegram-privacy-mode', msg: 'Telegram: privacy mode เปิดอยู่' });
    const { code, stdout } = await formatThroughCli(`2026-12-06 16:00:00 +07:00: ${bot}\n2026-12-06 16:00:01 +07:00: llama-server listening\n`);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] WARN: Telegram: privacy mode เปิดอยู่$/);
    expect(lines[1]).toBe('    warning: "telegram-privacy-mode"');
    expect(lines[2]).toBe('2026-12-06 16:00:01 +07:00: llama-server listening');
  });
});
