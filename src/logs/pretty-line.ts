import { prettyFactory } from 'pino-pretty';

// One line of pm2's log files (or of `pm2 logs --raw`) made readable: pm2 prefixes each line with its
// log_date_format (`2026-12-06 16:00:00 +07:00: `, ecosystem.config.cjs); the bot's own lines are pino JSON, shown
// by pino-pretty with the local time of their `time`, their level, their message (already in BOT_LANGUAGE where it
// is meant for people) and their fields. Anything else (llama-server, Ollama, pm2's own lines) passes as it is.

const pm2Date = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?: [+-]\d{2}:?\d{2})?): /;
/** Longer lines are shown as they are: a pino line of the bot is far shorter (message text is not logged at info). */
const maxParsedLineChars = 256 * 1024;

export type LineFormatter = (line: string) => string;

function isPinoRecord(value: unknown): value is { level: number; time?: number; msg?: string } {
  return typeof value === 'object' && value !== null && typeof (value as { level?: unknown }).level === 'number';
}

export function createLineFormatter(options: { colorize: boolean }): LineFormatter {
  const pretty = prettyFactory({ colorize: options.colorize, ignore: 'pid,hostname', translateTime: 'SYS:yyyy-mm-dd HH:MM:ss', singleLine: false });
  return (line) => {
    const dated = pm2Date.exec(line);
    const content = dated ? line.slice(dated[0].length) : line;
    if (!content.startsWith('{') || content.length > maxParsedLineChars) return line;
    let record: unknown;
    try {
      record = JSON.parse(content);
    } catch {
      return line;
    }
    if (!isPinoRecord(record)) return line;
    // Without its own time (not the bot's pino), the date pm2 wrote stays in front.
    const shown = pretty(record).replace(/\n$/, '');
    return record.time === undefined && dated ? `${dated[1]} ${shown}` : shown;
  };
}
