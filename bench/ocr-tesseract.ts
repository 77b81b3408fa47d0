import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recognitionArguments } from '../src/ocr/tesseract-command.js';

// The bench's tesseract call: the engine's own arguments (recognitionArguments), one thread, through GNU time
// when it is installed so the child's peak RSS and CPU time are measured too. The engine's runTesseract cannot be
// used for that: it kills only its direct child, and killing /usr/bin/time would orphan the tesseract under it.
// Here every child runs in its own process group, tracked until it exits, so a time-out or an interrupted bench
// kills the whole group and leaves nothing behind.

const gnuTime = '/usr/bin/time';
const running = new Set<ChildProcess>();
const scratch = mkdtempSync(join(tmpdir(), 'saeng-ocr-bench-'));
let sequence = 0;

/**
 * GNU time is there and takes `-f %M -o FILE` (Debian's `time` package; a machine without it, or with a BSD
 * time, runs tesseract directly and reports no child RSS). Probed once on a trivial command.
 */
function gnuTimeWorks(): boolean {
  if (!existsSync(gnuTime)) return false;
  const probe = join(scratch, 'probe.txt');
  try {
    const result = spawnSync(gnuTime, ['-f', '%M', '-o', probe, 'true'], { stdio: 'ignore', timeout: 5_000 });
    const written = result.status === 0 && existsSync(probe) ? (readFileSync(probe, 'utf8').trim().split('\n').pop() ?? '') : '';
    return written !== '' && Number.isFinite(Number(written));
  } catch {
    return false;
  } finally {
    rmSync(probe, { force: true });
  }
}

export const childRssMeasured = gnuTimeWorks();

export interface TesseractRun {
  text: string;
  ms: number;
  /** Peak RSS of the tesseract child in kB (GNU time's %M), when measured. */
  maxRssKb?: number;
  /** User + system CPU time of the child (GNU time's %U + %S): less disturbed by other work on the machine. */
  cpuMs?: number;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone between the check and the kill.
  }
}

/** Kills every child still running and removes the scratch folder; called on exit and on SIGINT/SIGTERM. */
export function stopAllTesseracts(): void {
  for (const child of running) killGroup(child);
  running.clear();
  rmSync(scratch, { recursive: true, force: true });
}

process.once('exit', stopAllTesseracts);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAllTesseracts();
    process.exit(130);
  });
}

export function runTesseract(image: Buffer, languages = 'tha+eng', timeoutMs = 60_000): Promise<TesseractRun> {
  const rssFile = join(scratch, `rss-${(sequence += 1)}.txt`);
  const tesseractArgs = recognitionArguments(languages);
  const [command, args] = childRssMeasured ? [gnuTime, ['-f', '%M %U %S', '-o', rssFile, 'tesseract', ...tesseractArgs]] : ['tesseract', tesseractArgs];
  const started = performance.now();
  const child = spawn(command, args, { detached: true, env: { ...process.env, OMP_THREAD_LIMIT: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  const output: Buffer[] = [];
  const errors: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => errors.push(chunk));
  child.stdin.on('error', () => undefined); // EPIPE when tesseract dies early: the exit code tells.
  child.stdin.end(image);
  const timer = setTimeout(() => killGroup(child), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      const ms = performance.now() - started;
      if (code !== 0) {
        reject(new Error(`tesseract exited with ${code ?? signal}: ${Buffer.concat(errors).toString('utf8').slice(0, 500)}`));
        return;
      }
      resolve({ text: Buffer.concat(output).toString('utf8'), ms, ...childUsage(rssFile) });
    });
  });
}

/** GNU time's "%M %U %S" line: peak RSS in kB, user and system seconds. */
function childUsage(file: string): { maxRssKb?: number; cpuMs?: number } {
  if (!childRssMeasured || !existsSync(file)) return {};
  const [rss, user, system] = (readFileSync(file, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number);
  rmSync(file, { force: true });
  if (rss === undefined || user === undefined || system === undefined || ![rss, user, system].every(Number.isFinite)) return {};
  return { maxRssKb: rss, cpuMs: Math.round((user + system) * 1000) };
}
