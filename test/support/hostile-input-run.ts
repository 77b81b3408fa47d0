import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// Runs hostile-input-child.ts in a process with the bot's heap flags (package.json's `start`) and returns its
// report, or how it died. Used by the hardening tests and `npm run bench -- hardening`.

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'hostile-input-child.ts');
const tsxLoader = import.meta.resolve('tsx');

const reportSchema = z.object({
  replies: z.array(z.string()),
  vision: z.string().optional(),
  ocr: z.string().optional(),
  ms: z.number(),
  peakMb: z.number(),
});

export type HostileInputReport = z.infer<typeof reportSchema>;
export type HostileInputRun = { ok: true; report: HostileInputReport } | { ok: false; exitCode: number | null; signal: string | null; stderr: string };

/** `environment`: settings for the app in the child (MAX_IMAGE_PIXELS…). */
export function runHostileInput(mode: 'image' | 'kb', file: string, environment: Record<string, string> = {}): Promise<HostileInputRun> {
  const process_ = spawn(process.execPath, ['--max-semi-space-size=2', '--max-old-space-size=256', '--import', tsxLoader, child, mode, file], {
    cwd: path.dirname(file),
    env: { PATH: process.env.PATH ?? '', HOSTILE_INPUT_ENVIRONMENT: JSON.stringify(environment) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  process_.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8').slice(0, 4000)));
  return new Promise((resolve) => {
    process_.once('exit', (exitCode, signal) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      const parsed = exitCode === 0 ? reportSchema.safeParse(JSON.parse(last || 'null')) : null;
      resolve(parsed?.success ? { ok: true, report: parsed.data } : { ok: false, exitCode, signal, stderr: stderr.slice(-2000) });
    });
  });
}
