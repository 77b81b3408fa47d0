import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs by default; human-readable lines for the console chat. No message text at info level. */
export function createLogger(options: { level: string; pretty?: boolean; destination?: NodeJS.WritableStream }): Logger {
  if (options.pretty) {
    return pino({
      level: options.level,
      transport: { target: 'pino-pretty', options: { colorize: true, destination: 2, ignore: 'pid,hostname' } },
    });
  }
  if (options.destination) return pino({ level: options.level }, options.destination);
  return pino({ level: options.level });
}

/** A logger that drops everything: for tests and benchmarks. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
