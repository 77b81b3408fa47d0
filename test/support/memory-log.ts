import { Writable } from 'node:stream';
import { z } from 'zod';
import { createLogger, type Logger } from '../../src/shared/log.js';

export interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

const recordSchema = z.looseObject({ level: z.number(), msg: z.string() });

/** A real pino logger whose JSON lines are parsed into `records` (for asserting what was logged). */
export function memoryLog(level = 'info'): { log: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim()) records.push(recordSchema.parse(JSON.parse(line)));
      }
      callback();
    },
  });
  return { log: createLogger({ level, destination }), records };
}
