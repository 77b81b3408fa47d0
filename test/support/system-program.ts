import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

// Whether a test that needs a system program (the program itself, not what the bot can do without it) should be
// skipped: locally, when the program is not on PATH, with one line saying which package installs it; under
// CI=true never, so a missing program fails there instead of passing unseen.

export function onPath(program: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => {
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

const told = new Set<string>();

/** True when the tests that need `program` should be skipped here (never under CI). */
export function skipWithout(program: string, debianPackage: string): boolean {
  if (onPath(program) || process.env.CI === 'true') return false;
  if (!told.has(program)) {
    told.add(program);
    console.warn(`skipped: tests that need ${program} (apt-get install ${debianPackage})`);
  }
  return true;
}
