import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Stand-ins for the tesseract executable, as small shell scripts in a temp folder: each answers `--version` and
// `--list-langs` with the real tesseract (so the engine's check passes) and does its own thing for a recognition.

export interface ScriptFolder {
  folder: string;
  /** Writes an executable script whose recognition branch is `body` (POSIX sh). */
  script(name: string, body: string): string;
  /** Writes an executable script that is `body` alone: it sees the status checks too. */
  plainScript(name: string, body: string): string;
  remove(): void;
}

export function scriptFolder(): ScriptFolder {
  const folder = mkdtempSync(path.join(tmpdir(), 'saeng-ocr-'));
  const write = (name: string, lines: string[]): string => {
    const file = path.join(folder, name);
    writeFileSync(file, ['#!/bin/sh', ...lines, ''].join('\n'));
    chmodSync(file, 0o755);
    return file;
  };
  return {
    folder,
    script: (name, body) => write(name, ['case "$1" in --version|--list-langs) exec tesseract "$@" ;; esac', body]),
    plainScript: (name, body) => write(name, [body]),
    remove: () => rmSync(folder, { recursive: true, force: true }),
  };
}

export function makeFifo(file: string): string {
  execFileSync('mkfifo', [file]);
  return file;
}

/** Single-quoted for sh (paths from mkdtemp hold no quote, but a test folder could). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** True while a process with this id exists (signal 0 only asks). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
