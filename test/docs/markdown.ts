import { readdirSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './repository.js';

// Reading the project's Markdown the way GitHub shows it, for the docs tests: the README and docs/*.md.

/** README.md and every docs/*.md, as paths relative to the repository root. */
export function documentationFiles(): string[] {
  const guides = readdirSync(path.join(repositoryRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides.sort()];
}

/** The text without fenced code blocks (a `#` line or `[x](y)` inside one is code, not a heading or a link). */
export function withoutFencedCode(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker) fence = marker[0];
    else if (fence !== undefined && marker?.startsWith(fence)) fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return lines.join('\n');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file's headings make, with GitHub's `-1`, `-2` suffixes for repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFencedCode(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const slug = headingSlug(match[1] ?? '');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of the Markdown links in prose (not in code). */
export function linkTargets(markdown: string): string[] {
  const prose = withoutFencedCode(markdown).replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

/** The cells of a Markdown table row, or undefined for any other line (the header separator included). */
export function tableCells(line: string): string[] | undefined {
  if (!line.startsWith('|') || /^\|[\s|:-]+\|$/.test(line)) return undefined;
  return line
    .slice(1, line.endsWith('|') ? -1 : undefined)
    .split('|')
    .map((cell) => cell.trim());
}

/** The names written in backticks in a cell: "`pm_uptime`, `min_uptime`" → both. */
export function backtickedNames(cell: string): string[] {
  return [...cell.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((match) => match[1] ?? '');
}
