import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot, sourceFiles } from './import-graph.js';

// Tests mirror the tree: the test of `src/x/y.ts` is `test/src/x/y.test.ts`, of `adapters/a/b.ts`
// `test/adapters/a/b.test.ts`, of `agent/...` `test/agent/...`. These folders are the only ones that do not mirror
// a source folder; a test file directly in test/ checks the whole project (architecture, regex safety).
export const nonMirrorTestFolders = ['e2e', 'fakes', 'support', 'fixtures', 'bench', 'deploy', 'docs'] as const;

const sourceRoots = ['src', 'adapters', 'agent'];

/** Why a test file sits outside the layout, or undefined when it keeps it. */
export function layoutViolation(testFile: string, isSourceFolder: (folder: string) => boolean): string | undefined {
  const folder = path.posix.dirname(testFile.replace(/^test\//, ''));
  if (folder === '.') return undefined;
  const [top] = folder.split('/');
  if ((nonMirrorTestFolders as readonly string[]).includes(top ?? '')) return undefined;
  if (sourceRoots.includes(top ?? '') && isSourceFolder(folder)) return undefined;
  return `test/${folder}/ mirrors no source folder (move it to test/<source folder>/ or one of ${nonMirrorTestFolders.join(', ')})`;
}

export function isSourceFolder(folder: string): boolean {
  const absolute = path.join(projectRoot, folder);
  return existsSync(absolute) && statSync(absolute).isDirectory();
}

export function testFiles(): string[] {
  return sourceFiles('test').filter((file) => file.endsWith('.test.ts'));
}
