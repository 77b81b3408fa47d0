import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The repository's files as the docs tests read them.

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

export function readRepositoryFile(relativePath: string): string {
  return readFileSync(path.join(repositoryRoot, relativePath), 'utf8');
}

/** Every .ts file under the given folders, as paths relative to the repository root. */
export function sourceFiles(folders: string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(path.join(repositoryRoot, folder), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.ts'))
      .map((name) => path.posix.join(folder, name.split(path.sep).join('/'))),
  );
}

/** Source text without its comments (a `process.env.X` in a comment is an example, not a read); URLs survive. */
export function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}
