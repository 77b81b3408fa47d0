import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, inject } from 'vitest';

// Some tests need a server the project does not ship (redis-server, PostgreSQL). On a machine without it they are
// skipped, each skip noted for the one summary line the run ends with (test/support/global-setup.ts); under CI=true
// a missing program fails the file instead, since CI installs them (.ci/run).

export interface SystemProgram {
  /** What the summary line calls it. */
  name: string;
  /** The Debian package that provides it. */
  debianPackage: string;
  /** Where it is, or undefined when this machine lacks it. */
  locate(): string | undefined;
}

/** A program on PATH, as spawn() would find it. */
function onPath(program: string): string | undefined {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(folder, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}

function executable(file: string): string | undefined {
  try {
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}

/** A font file fontconfig says covers Thai; without one, chromium draws Thai as empty boxes. */
function thaiFontFile(): string | undefined {
  try {
    const listing = execFileSync('fc-list', [':lang=th', 'file'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return listing
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.replace(/:\s*$/, '');
  } catch {
    return undefined; // no fontconfig: no fonts chromium could use either
  }
}

/** Debian installs PostgreSQL off PATH, one folder per major version; the newest with initdb wins. */
function postgresBinFolder(root = '/usr/lib/postgresql'): string | undefined {
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((version) => path.join(root, version, 'bin')).find((bin) => existsSync(path.join(bin, 'initdb')));
}

export const redisServerProgram: SystemProgram = { name: 'redis-server', debianPackage: 'redis-server', locate: () => onPath('redis-server') };
export const postgresProgram: SystemProgram = { name: 'PostgreSQL', debianPackage: 'postgresql', locate: () => postgresBinFolder() };
export const tesseractProgram: SystemProgram = { name: 'tesseract', debianPackage: 'tesseract-ocr', locate: () => onPath('tesseract') };
export const pdftoppmProgram: SystemProgram = { name: 'pdftoppm', debianPackage: 'poppler-utils', locate: () => onPath('pdftoppm') };

// Debian's chromium (a launcher script in /usr/bin), which playwright-core drives in the admin page tests; the
// fallback path serves a PATH that leaves out /usr/bin.
export const chromiumProgram: SystemProgram = {
  name: 'chromium',
  debianPackage: 'chromium',
  locate: () => onPath('chromium') ?? executable('/usr/bin/chromium'),
};
export const thaiFontProgram: SystemProgram = { name: 'a Thai font', debianPackage: 'fonts-tlwg-loma-otf', locate: thaiFontFile };

export const skipNotesKey = 'systemProgramSkipNotes';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder where skipped tests leave one note each (test/support/global-setup.ts). */
    [skipNotesKey]: string;
  }
}

export interface SkipNote {
  program: string;
  debianPackage: string;
  testFile: string;
}

function noteSkip(program: SystemProgram, testFile: string): void {
  const folder = inject(skipNotesKey) as string | undefined; // absent when run without this project's config
  if (folder === undefined) return;
  const note: SkipNote = { program: program.name, debianPackage: program.debianPackage, testFile };
  writeFileSync(path.join(folder, `${randomUUID()}.json`), JSON.stringify(note));
}

/**
 * Whether this test file can use `program`; call at the top of the file and skip with `describe.skipIf(!…)`.
 * When it is missing: false (and a note for the summary), or under CI=true an error that fails the file.
 */
export function systemProgramPresent(program: SystemProgram): boolean {
  if (program.locate() !== undefined) return true;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') {
    throw new Error(`${program.name} is not installed; CI runs every test (apt-get install ${program.debianPackage}, as .ci/run does)`);
  }
  noteSkip(program, path.relative(process.cwd(), expect.getState().testPath ?? 'unknown'));
  return false;
}
