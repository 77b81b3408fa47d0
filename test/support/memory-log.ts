import { Writable } from 'node:stream';
import { z } from 'zod';
import { createLogRedactor } from '../../src/dlp/redact-credentials.js';
import { createLogger, type Logger } from '../../src/shared/log.js';

export interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const recordSchema = z.looseObject({ level: z.number(), msg: z.string() });

/**
 * A real pino logger with production's redaction (credential shapes, plus `secrets` as exact values), whose JSON
 * lines are kept as written in `lines` and parsed into `records` (for asserting what was logged).
 */
export function memoryLog(level = 'info', secrets: readonly string[] = []): { log: Logger; records: LogRecord[]; lines: string[] } {
  const records: LogRecord[] = [];
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        lines.push(line);
        records.push(recordSchema.parse(JSON.parse(line)));
      }
      callback();
    },
  });
  return { log: createLogger({ level, destination, redact: createLogRedactor(secrets) }), records, lines };
}
