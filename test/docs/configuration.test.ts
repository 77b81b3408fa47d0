import { describe, expect, it } from 'vitest';
import { configSchema } from '../../src/config.js';
import { backtickedNames, tableCells } from './markdown.js';
import { readRepositoryFile, sourceFiles, withoutComments } from './repository.js';

// docs/configuration.md against the code: the schema's variables with the schema's defaults, and every variable read
// outside it (the ecosystem file, process.env) listed too.

const doc = readRepositoryFile('docs/configuration.md');

/** The rows (variable, default cell) of the tables between one `## ` heading and the next. */
function tableRows(sectionHeading: string): { name: string; defaultCell: string }[] {
  const start = doc.indexOf(`\n## ${sectionHeading}`);
  if (start < 0) throw new Error(`docs/configuration.md has no section "## ${sectionHeading}"`);
  const next = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, next < 0 ? undefined : next);
  return section.split('\n').flatMap((line) => {
    const cells = tableCells(line);
    if (!cells || cells[0] === 'variable') return [];
    return backtickedNames(cells[0] ?? '').map((name) => ({ name, defaultCell: cells[1] ?? '' }));
  });
}

/** The default as the doc writes it: `value`, or — for "not set". */
function statedDefault(cell: string): string | undefined {
  if (cell === '—') return undefined;
  const value = /^`([^`]*)`$/.exec(cell)?.[1];
  if (value === undefined) throw new Error(`a default is \`value\` or —, not: ${cell}`);
  return value;
}

/** The schema's default as text: undefined when a variable left unset means "not set" (undefined, '' or []). */
function schemaDefault(value: unknown): string | undefined {
  if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return undefined;
  return String(value);
}

const schemaRows = tableRows('The bot');
const ecosystem = readRepositoryFile('ecosystem.config.cjs');

describe('docs/configuration.md: the schema (src/config.ts)', () => {
  const schemaKeys = Object.keys(configSchema.shape);
  const defaults = configSchema.parse({}) as Record<string, unknown>;

  it('lists every variable of the schema, once, and nothing else', () => {
    const listed = schemaRows.map((row) => row.name);
    expect([...listed].sort()).toEqual([...schemaKeys].sort());
  });

  it("states each variable's default as the schema has it", () => {
    const wrong = schemaRows.flatMap(({ name, defaultCell }) => {
      const stated = statedDefault(defaultCell);
      const actual = schemaDefault(defaults[name]);
      return stated === actual ? [] : [`${name}: the doc says ${stated ?? '—'}, the schema ${actual ?? '—'}`];
    });
    expect(wrong).toEqual([]);
  });
});

/** The code that may read the environment, comments removed: src/, adapters/, agent/ and the ecosystem file. */
const code = [...sourceFiles(['src', 'adapters', 'agent']), 'ecosystem.config.cjs'].map((file) => withoutComments(readRepositoryFile(file))).join('\n');

/** Variables the code reads outside the schema: process.env.X, pm2's environment (last-resort), the ecosystem's settings. */
function variablesReadOutsideTheSchema(): Set<string> {
  const names = new Set<string>();
  for (const match of code.matchAll(/process\.env(?:\.([A-Za-z_]\w*)|\[['"]([A-Za-z_]\w*)['"]\])/g)) names.add(match[1] ?? match[2] ?? '');
  // src/last-resort.ts reads pm2's pm_uptime and min_uptime from the environment it is given (process.env).
  for (const match of code.matchAll(/\benvironment\.([a-z_]\w*)/g)) names.add(match[1] ?? '');
  for (const match of ecosystem.matchAll(/\bsetting\('([A-Z_]\w*)'/g)) names.add(match[1] ?? '');
  for (const match of ecosystem.matchAll(/\bmodelArguments\('([A-Z_]\w*)', '([A-Z_]\w*)'/g)) names.add(match[1] ?? '').add(match[2] ?? '');
  return names;
}

describe('docs/configuration.md: variables read outside the schema', () => {
  const outsideRows = [...tableRows("pm2's ecosystem file"), ...tableRows('Read elsewhere')];
  const schemaKeys = new Set(Object.keys(configSchema.shape));
  const listed = new Set([...schemaRows, ...outsideRows].map((row) => row.name));

  it('lists every one the code reads', () => {
    const read = [...variablesReadOutsideTheSchema()].filter((name) => name !== '' && !schemaKeys.has(name));
    expect(read.length).toBeGreaterThan(10);
    expect(read.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('lists none the code does not know', () => {
    const known = `${code}\n${readRepositoryFile('package.json')}`;
    expect(outsideRows.filter((row) => !new RegExp(`\\b${row.name}\\b`).test(known)).map((row) => row.name)).toEqual([]);
  });

  it("states the ecosystem file's defaults as it has them", () => {
    // setting('NAME', 'fallback'), and modelArguments('FILE_VARIABLE', 'HF_VARIABLE', 'example', 'default file').
    const fallbacks = [
      ...[...ecosystem.matchAll(/\bsetting\('([A-Z_]\w*)', '([^']*)'\)/g)].map(([, name = '', fallback = '']) => [name, fallback] as const),
      ...[...ecosystem.matchAll(/\bmodelArguments\('([A-Z_]\w*)', '[A-Z_]\w*', '[^']*', '([^']*)'\)/g)].map(
        ([, name = '', file = '']) => [name, file] as const,
      ),
    ];
    expect(fallbacks.length).toBeGreaterThan(8);
    const wrong = fallbacks.flatMap(([name, fallback]) => {
      const row = outsideRows.find((candidate) => candidate.name === name);
      if (!row) return [];
      const stated = statedDefault(row.defaultCell);
      return stated === (fallback || undefined) ? [] : [`${name}: the doc says ${stated ?? '—'}, the ecosystem file ${fallback || '—'}`];
    });
    expect(wrong).toEqual([]);
  });
});
