import { execFile } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/shared/log.js';

// The logger hands every serialized line to its redactor before any destination sees it.

function captured(): { destination: Writable; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { destination, lines };
}

const redactValue = (line: string) => line.replaceAll('hunter2-secret', '[redacted:configured-secret]');

describe('createLogger({ redact })', () => {
  it('redacts every line, child loggers and error serializations included', () => {
    const { destination, lines } = captured();
    const log = createLogger({ level: 'info', destination, redact: redactValue });
    log.info({ key: 'hunter2-secret' }, 'plain');
    log.child({ conversation: 'console:local' }).warn({ err: new Error('rejected hunter2-secret') }, 'child');
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('hunter2-secret');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ msg: 'plain', key: '[redacted:configured-secret]' });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({
      msg: 'child',
      conversation: 'console:local',
      err: { message: 'rejected [redacted:configured-secret]' },
    });
  });

  it('a redactor that throws drops the line instead of letting it through or throwing at the caller', () => {
    const { destination, lines } = captured();
    const log = createLogger({
      level: 'info',
      destination,
      redact: () => {
        throw new Error('bug');
      },
    });
    expect(() => log.error({ key: 'hunter2-secret' }, 'boom')).not.toThrow();
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([{ level: 50, msg: 'log line dropped: redaction failed' }]);
  });

  it('the pretty console output (pino-pretty transport on stderr) is redacted too', async () => {
    const script = [
      "import { createLogger } from './src/shared/log.ts';",
      "const log = createLogger({ level: 'info', pretty: true, redact: (line) => line.replaceAll('hunter2-secret', '[redacted]') });",
      "log.warn({ key: 'hunter2-secret' }, 'pretty line');",
    ].join('\n');
    const root = path.resolve(import.meta.dirname, '../../..');
    const stderr = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: root, timeout: 30_000 }, (error, _stdout, output) =>
        error ? reject(error) : resolve(output),
      );
    });
    expect(stderr).toContain('pretty line');
    expect(stderr).toContain('[redacted]');
    expect(stderr).not.toContain('hunter2-secret');
  });
});

describe('createLogger({ byLevel }): the headless split', () => {
  it('info and debug to the info stream, warn/error/fatal to the problems stream, each line once, redacted on both', () => {
    const info = captured();
    const problems = captured();
    const log = createLogger({ level: 'debug', byLevel: { info: info.destination, problems: problems.destination }, redact: redactValue });
    log.debug('debugging');
    log.info({ token: 'hunter2-secret' }, 'info line');
    log.warn('warning line');
    log.child({ part: 'x' }).error({ err: new Error('failed with hunter2-secret') }, 'error line');
    log.fatal('fatal line');
    const messages = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages(info.lines)).toEqual(['debugging', 'info line']);
    expect(messages(problems.lines)).toEqual(['warning line', 'error line', 'fatal line']);
    expect([...info.lines, ...problems.lines].join('\n')).not.toContain('hunter2-secret');
    expect(info.lines[1]).toContain('[redacted:configured-secret]');
    expect(problems.lines[1]).toContain('failed with [redacted:configured-secret]');
  });

  it('the process streams: info on stdout, error on stderr, a configured secret redacted on both', async () => {
    const script = [
      "import { createLogger } from './src/shared/log.ts';",
      "const log = createLogger({ level: 'info', byLevel: { info: process.stdout, problems: process.stderr }, redact: (line) => line.replaceAll('hunter2-secret', '[redacted]') });",
      "log.info({ key: 'hunter2-secret' }, 'an info line');",
      "log.error({ key: 'hunter2-secret' }, 'an error line');",
    ].join('\n');
    const root = path.resolve(import.meta.dirname, '../../..');
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { cwd: root, timeout: 30_000 }, (error, out, err) =>
        error ? reject(error) : resolve({ stdout: out, stderr: err }),
      );
    });
    expect(stdout).toContain('"msg":"an info line"');
    expect(stdout).not.toContain('an error line');
    expect(stderr).toContain('"msg":"an error line"');
    expect(stderr).not.toContain('an info line');
    for (const output of [stdout, stderr]) {
      expect(output).toContain('"key":"[redacted]"');
      expect(output).not.toContain('hunter2-secret');
    }
  });
});
