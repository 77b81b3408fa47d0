import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// Every regex literal — and every `new RegExp(…)` / `RegExp(…)` with a literal pattern — in src/, agent/ and
// adapters/ must be linear-time: the recheck ReDoS checker (native backend when installed, so no JVM; results
// cached per pattern) must not call any of them vulnerable. Files added later are picked up automatically.

const root = path.resolve(import.meta.dirname, '..');
const scannedFolders = ['src', 'agent', 'adapters'];
const perPatternTimeoutMs = 10_000;
const checkConcurrency = 2;

interface Found {
  source: string;
  flags: string;
  where: string;
}

function typeScriptFiles(folder: string): string[] {
  const entries = readdirSync(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

function literalText(node: ts.Node | undefined): string | undefined {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  return undefined;
}

function collect(file: string): Found[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: Found[] = [];
  const where = (node: ts.Node): string => `${path.relative(root, file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const slash = node.text.lastIndexOf('/');
      found.push({ source: node.text.slice(1, slash), flags: node.text.slice(slash + 1), where: where(node) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const pattern = literalText(node.arguments?.[0]);
      if (pattern !== undefined) found.push({ source: pattern, flags: literalText(node.arguments?.[1]) ?? '', where: where(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const patterns = scannedFolders.flatMap((folder) => typeScriptFiles(path.join(root, folder))).flatMap(collect);

describe('regex safety (recheck)', () => {
  it('finds the regexes of the code base', () => {
    expect(patterns.length).toBeGreaterThan(50);
    expect(patterns.some((pattern) => pattern.where.startsWith(path.join('agent', 'guards')))).toBe(true);
  });

  it('has no regex that recheck calls vulnerable', { timeout: 300_000 }, async () => {
    const unique = new Map<string, Found[]>();
    for (const pattern of patterns) {
      const key = `/${pattern.source}/${pattern.flags}`;
      unique.set(key, [...(unique.get(key) ?? []), pattern]);
    }
    const vulnerable: string[] = [];
    const undecided: string[] = [];
    const queue = [...unique.entries()];
    const worker = async (): Promise<void> => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const [key, sites] = next;
        const first = sites[0];
        if (!first) continue;
        // The fuzzer's verdicts count matching steps only (no wall-clock limits on the attack or its incubation), so a
        // loaded machine cannot turn a bounded pattern into a "vulnerable" one; step limits stay at their defaults.
        const diagnostics: Diagnostics = await check(first.source, first.flags, { timeout: perPatternTimeoutMs, attackTimeout: null, incubationTimeout: null });
        const where = sites.map((site) => site.where).join(', ');
        if (diagnostics.status === 'vulnerable') {
          vulnerable.push(`${where}: ${key} is vulnerable (${diagnostics.complexity.summary}), attack ${JSON.stringify(diagnostics.attack.pattern)}`);
        } else if (diagnostics.status === 'unknown') {
          undecided.push(`${where}: ${key} (${diagnostics.error.kind})`);
        }
      }
    };
    await Promise.all(Array.from({ length: checkConcurrency }, worker));
    // Not proof either way (e.g. a time-out on a loaded machine): shown, not failed.
    if (undecided.length > 0) console.warn(`recheck could not decide:\n${undecided.join('\n')}`);
    expect(vulnerable.sort()).toEqual([]);
  });
});
