import { describe, expect, it } from 'vitest';
import { createLineFormatter } from '../../../src/logs/pretty-line.js';

// `npm run logs`: pm2's dated lines of the bot's pino JSON become readable; other lines pass as they are.

const format = createLineFormatter({ colorize: false });
const record = { level: 40, time: Date.UTC(2026, 11, 6, 9, 0, 0), pid: 7, hostname: 'box', platform: 'line', msg: 'LINE webhook: ยังไม่ได้ตั้ง Webhook URL' };

describe('createLineFormatter', () => {
  it('shows a dated pino line as level, message and fields, without pid and host', () => {
    const shown = format(`2026-12-06 16:00:00 +07:00: ${JSON.stringify(record)}`);
    expect(shown).toMatch(/^\[2026-12-06 \d\d:00:00\] WARN: LINE webhook: ยังไม่ได้ตั้ง Webhook URL\n {4}platform: "line"$/);
    expect(shown).not.toContain('hostname');
    expect(format(JSON.stringify(record)).split('\n')[0]).toContain('WARN: LINE webhook');
  });

  it('keeps pm2’s date in front of a pino line without its own time', () => {
    const { time: _time, ...untimed } = record;
    expect(format(`2026-12-06 16:00:00 +07:00: ${JSON.stringify(untimed)}`).startsWith('2026-12-06 16:00:00 +07:00 WARN: LINE webhook')).toBe(true);
  });

  it('passes the model server’s lines, broken JSON, JSON that is not pino and an oversized line unchanged', () => {
    for (const line of [
      '2026-12-06 16:00:01 +07:00: main: server is listening on http://127.0.0.1:8080',
      '2026-12-06 16:00:01 +07:00: {"level":',
      '{"status":"ok"}',
      `{"level":30,"msg":"${'x'.repeat(300_000)}"}`,
      '',
    ]) {
      expect(format(line)).toBe(line);
    }
  });
});
