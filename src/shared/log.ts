import { pino, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import { describeError, errorSummary } from './describe-error.js';

export type { Logger };

/** Rewrites one serialized JSON line (credentials out) and returns valid JSON. */
export type LineRedactor = (line: string) => string;

// A redactor that throws must neither crash the caller nor let the line through.
const unredactableLine = `${JSON.stringify({ level: 50, msg: 'log line dropped: redaction failed' })}\n`;

function redactionHooks(redact: LineRedactor | undefined): Pick<LoggerOptions, 'hooks'> {
  if (!redact) return {};
  const streamWrite = (line: string): string => {
    try {
      return redact(line);
    } catch {
      return unredactableLine;
    }
  };
  return { hooks: { streamWrite } };
}

export interface LoggerSettings {
  level: string;
  /** Human-readable lines (the console chat) instead of JSON. */
  pretty?: boolean;
  /** Pretty: colours on (default: on). */
  colorize?: boolean;
  destination?: NodeJS.WritableStream;
  /**
   * JSON only, instead of `destination`: trace/debug/info lines to `info`, warn/error/fatal to `problems` (stdout
   * and stderr headless, so pm2's error log holds only what needs a look).
   */
  byLevel?: { info: NodeJS.WritableStream; problems: NodeJS.WritableStream };
  redact?: LineRedactor;
}

/**
 * JSON logs by default; human-readable lines for the console chat. No message text at info level. `redact` sees
 * every serialized line before any destination does (pino's streamWrite hook runs before the pretty stream too).
 * Pretty with a destination formats in this thread and writes each line to it (the console chat prints it above its
 * prompt); pretty alone is the pino-pretty transport on stderr.
 */
export function createLogger(options: LoggerSettings): Logger {
  const base: LoggerOptions = { level: options.level, ...redactionHooks(options.redact) };
  const colorize = options.colorize ?? true;
  if (options.pretty && options.destination) {
    return pino(base, pretty({ destination: options.destination, colorize, ignore: 'pid,hostname', sync: true }));
  }
  if (options.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize, destination: 2, ignore: 'pid,hostname' } },
    });
  }
  if (options.byLevel) {
    // dedupe: each line goes only to the stream with the highest level it reaches, so warnings are not on both.
    const streams = [
      { level: 'trace' as const, stream: options.byLevel.info },
      { level: 'warn' as const, stream: options.byLevel.problems },
    ];
    return pino(base, pino.multistream(streams, { dedupe: true }));
  }
  if (options.destination) return pino(base, options.destination);
  return pino(base);
}

/** A logger that drops everything: for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/**
 * Logs a failure without its message at `level` (no message text at info and above: the README's promise), and the
 * message itself only at debug, as `<msg>: detail`.
 */
export function logFailure(log: Logger, level: 'warn' | 'error', fields: Record<string, unknown>, msg: string, error: unknown): void {
  log[level]({ ...fields, ...errorSummary(error) }, msg);
  log.debug({ ...fields, error: describeError(error) }, `${msg}: detail`);
}
