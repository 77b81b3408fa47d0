import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentationFiles, headingAnchors, linkTargets } from './markdown.js';
import { readRepositoryFile, repositoryRoot, sourceFiles } from './repository.js';

// The docs a newcomer follows must not send them anywhere that does not exist: a relative link to a missing file or
// heading, or an `npm run` of a script package.json does not have.

const readmeMaxBytes = 15 * 1024;

const packageScripts = new Set(Object.keys((JSON.parse(readRepositoryFile('package.json')) as { scripts: Record<string, string> }).scripts));

/** What is wrong with one link of `file`, or undefined when it leads somewhere. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not ours to check
  const [pathPart = '', anchor] = target.split('#', 2);
  const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
  if (resolved.startsWith('..') || !existsSync(path.join(repositoryRoot, resolved))) return `${file}: ${target} — no file ${resolved}`;
  if (anchor === undefined || !resolved.endsWith('.md')) return undefined;
  const anchors = headingAnchors(readRepositoryFile(resolved));
  return anchors.has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `${file}: ${target} — no heading #${anchor} in ${resolved}`;
}

describe('the docs', () => {
  const files = documentationFiles();

  it('are the README and the guides in docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toEqual(expect.arrayContaining(['docs/configuration.md', 'docs/setup-line.md', 'docs/platforms.md']));
  });

  it('link only to files and headings that exist', () => {
    const broken = files.flatMap((file) => linkTargets(readRepositoryFile(file)).flatMap((target) => brokenLink(file, target) ?? []));
    expect(broken).toEqual([]);
  });

  it('mention only `npm run` scripts that package.json has', () => {
    const unknown = files.flatMap((file) =>
      [...readRepositoryFile(file).matchAll(/\bnpm run(?:\s+-s)?\s+([a-z][\w:-]*)/g)]
        .map((match) => match[1] ?? '')
        .filter((script) => !packageScripts.has(script))
        .map((script) => `${file}: npm run ${script}`),
    );
    expect(unknown).toEqual([]);
  });

  it('keep the README a landing page of at most 15 KB', () => {
    expect(statSync(path.join(repositoryRoot, 'README.md')).size).toBeLessThanOrEqual(readmeMaxBytes);
  });
});

describe('docs/platforms.md', () => {
  it('has every section the code cites (platforms.md §1.2)', () => {
    const sections = new Set([...readRepositoryFile('docs/platforms.md').matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.?\s/gm)].map((match) => match[1]));
    const missing = sourceFiles(['src', 'adapters', 'agent', 'bench', 'test']).flatMap((file) =>
      [...readRepositoryFile(file).matchAll(/platforms\.md((?:[\s/*,]*§\d+(?:\.\d+)?)+)/g)]
        .flatMap((match) => [...(match[1] ?? '').matchAll(/§(\d+(?:\.\d+)?)/g)].map((section) => section[1] ?? ''))
        .filter((section) => !sections.has(section))
        .map((section) => `${file}: §${section}`),
    );
    expect(missing).toEqual([]);
  });
});
