import { pino, type Logger, type LoggerOptions } from 'pino';

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

/**
 * JSON logs by default; human-readable lines for the console chat. No message text at info level. `redact` sees
 * every serialized line before any destination does (pino's streamWrite hook runs before the pretty transport too).
 */
export function createLogger(options: { level: string; pretty?: boolean; destination?: NodeJS.WritableStream; redact?: LineRedactor }): Logger {
  const base: LoggerOptions = { level: options.level, ...redactionHooks(options.redact) };
  if (options.pretty) {
    return pino({
      ...base,
      transport: { target: 'pino-pretty', options: { colorize: true, destination: 2, ignore: 'pid,hostname' } },
    });
  }
  if (options.destination) return pino(base, options.destination);
  return pino(base);
}

/** A logger that drops everything: for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
