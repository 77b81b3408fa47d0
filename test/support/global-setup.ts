import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { skipNotesKey, type SkipNote } from './system-programs.js';

// Once per run: a folder for the notes of tests skipped for a missing system program, and at the end one line
// that names them and the Debian package that would run them.

/** `skipped for want of redis-server (8 files: apt-get install redis-server), …`, or undefined when none was. */
export function skipSummary(notes: readonly SkipNote[]): string | undefined {
  const byProgram = new Map<string, { debianPackage: string; files: Set<string> }>();
  for (const note of notes) {
    const entry = byProgram.get(note.program) ?? { debianPackage: note.debianPackage, files: new Set<string>() };
    entry.files.add(note.testFile);
    byProgram.set(note.program, entry);
  }
  if (byProgram.size === 0) return undefined;
  const parts = [...byProgram].map(([program, { debianPackage, files }]) => {
    const count = `${files.size} ${files.size === 1 ? 'file' : 'files'}`;
    return `${program} (${count}; apt-get install ${debianPackage})`;
  });
  return `Skipped, not installed here: ${parts.join(', ')}`;
}

/** Shared by the projects (`process`, `unit`): each runs this setup, and the run should end with one line. */
interface SkipRun {
  folder: string;
  projects: number;
}
const runKey = Symbol.for('saeng.test.skipRun');
const shared = globalThis as { [runKey]?: SkipRun };

export default function setup(project: TestProject): () => void {
  const run = (shared[runKey] ??= { folder: mkdtempSync(path.join(os.tmpdir(), 'saeng-test-skips-')), projects: 0 });
  run.projects += 1;
  project.provide(skipNotesKey, run.folder);
  return () => {
    run.projects -= 1;
    if (run.projects > 0) return;
    delete shared[runKey];
    const notes = readdirSync(run.folder).map((name) => JSON.parse(readFileSync(path.join(run.folder, name), 'utf8')) as SkipNote);
    rmSync(run.folder, { recursive: true, force: true });
    const summary = skipSummary(notes);
    if (summary) console.log(`\n${summary}\n`);
  };
}
