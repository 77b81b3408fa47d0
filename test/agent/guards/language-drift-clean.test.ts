import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { languageStep } from '../../../agent/guards/index.js';
import { countScripts } from '../../../agent/guards/language-drift-scripts.js';
import type { Language } from '../../../src/shared/types.js';
import { turnRecord } from '../../support/turn-record.js';

// False positives of the language step on clean answers: the other guards' clean-answer tables (read from their
// test files with the TypeScript parser, so they are the same tables, not copies) and the XQuAD-th paragraphs.

interface CleanAnswer {
  table: string;
  name: string;
  question: string;
  answer: string;
  language: Language;
}

const defaultQuestion = turnRecord().question;

/** Where each table is, and the question its answers were written for. */
const tables: { file: string; variable: string; question?: string }[] = [
  { file: 'refusal.test.ts', variable: 'kept' },
  { file: 'unsupported-numbers.test.ts', variable: 'cases', question: 'ถ้ามีงบ 50,000 บาท ซื้อทองได้กี่บาท' },
  { file: 'sources.test.ts', variable: 'kept' },
  { file: 'sources.test.ts', variable: 'rewrites' },
  { file: 'leaked-markup.test.ts', variable: 'prose' },
  { file: 'stream-monitor.test.ts', variable: 'quiet' },
];

function literalText(node: ts.Node | undefined): string | undefined {
  return node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
}

function property(object: ts.ObjectLiteralExpression, key: string): string | undefined {
  const found = object.properties.find((entry) => ts.isPropertyAssignment(entry) && ts.isIdentifier(entry.name) && entry.name.text === key);
  return found && ts.isPropertyAssignment(found) ? literalText(found.initializer) : undefined;
}

/** Rows `[name, answer]` or `[name, { question, finalText, language }]` of every array named `variable`. */
function readTable(table: (typeof tables)[number]): { rows: CleanAnswer[]; skipped: number } {
  const text = readFileSync(new URL(table.file, import.meta.url), 'utf8');
  const source = ts.createSourceFile(table.file, text, ts.ScriptTarget.Latest, true);
  const rows: CleanAnswer[] = [];
  let skipped = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === table.variable && node.initializer) {
      const initializer = ts.isAsExpression(node.initializer) ? node.initializer.expression : node.initializer;
      if (ts.isArrayLiteralExpression(initializer)) {
        for (const row of initializer.elements) {
          if (!ts.isArrayLiteralExpression(row)) continue;
          const [nameNode, value] = row.elements;
          const name = literalText(nameNode) ?? '?';
          const base = { table: `${table.file} ${table.variable}`, name, question: table.question ?? defaultQuestion, language: 'th' as Language };
          const answer = literalText(value);
          if (answer !== undefined) rows.push({ ...base, answer });
          else if (value && ts.isObjectLiteralExpression(value) && property(value, 'finalText') !== undefined) {
            rows.push({
              ...base,
              question: property(value, 'question') ?? base.question,
              answer: property(value, 'finalText') ?? '',
              language: property(value, 'language') === 'en' ? 'en' : 'th',
            });
          } else skipped++; // built with an expression (`'…'.repeat(10)`)
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { rows, skipped };
}

const read = tables.map(readTable);
const clean = read.flatMap((table) => table.rows);
const flagged = (rows: readonly CleanAnswer[]) =>
  rows.filter((row) => languageStep(turnRecord({ question: row.question, finalText: row.answer, language: row.language })).action === 'retry');

describe('language drift: the other guards’ clean-answer tables', () => {
  it('reads every table', () => {
    for (const [index, table] of read.entries()) expect(table.rows.length, tables[index]?.file).toBeGreaterThan(3);
    expect(clean.length).toBe(82);
    expect(read.reduce((sum, table) => sum + table.skipped, 0)).toBe(1);
  });

  it('flags no answer that has any Thai in it', () => {
    const withThai = clean.filter((row) => countScripts(row.answer).thai > 0);
    expect(withThai.length).toBe(70);
    expect(flagged(withThai)).toEqual([]);
  });

  it('flags only English prose written under a Thai question (drift by design), and no short or data answer', () => {
    const english = clean.filter((row) => countScripts(row.answer).thai === 0);
    expect(flagged(english).map((row) => row.name)).toEqual([
      'an English answer to a Thai question that is not a refusal',
      'rounding of a decimal',
      'an English lead-in goes with the URL',
      'an English references block goes',
      'prose mentioning tool_call',
      'prose mentioning the <tool_call> tag',
    ]);
  });

  it('flags none of the answers without Thai when the question is English and the bot is English', () => {
    const english = clean
      .filter((row) => countScripts(row.answer).thai === 0)
      .map((row) => ({ ...row, question: 'What is the gold price today?', language: 'en' as const }));
    expect(flagged(english)).toEqual([]);
  });
});

const squad = z.object({ data: z.array(z.object({ paragraphs: z.array(z.object({ context: z.string() })) })) });
const paragraphs = squad
  .parse(JSON.parse(readFileSync(new URL('../../fixtures/knowledge/xquad.th.json', import.meta.url), 'utf8')))
  .data.flatMap((article) => article.paragraphs.map((paragraph) => paragraph.context));

describe('language drift: XQuAD-th paragraphs', () => {
  it('flags none of the 240 paragraphs as an answer to a Thai question, nor to one with no clear language', () => {
    expect(paragraphs).toHaveLength(240);
    const asAnswers = (question: string) =>
      paragraphs.map((answer, index) => ({ table: 'xquad', name: String(index), question, answer, language: 'th' as const }));
    expect(flagged(asAnswers('สรุปย่อหน้านี้ให้หน่อย'))).toEqual([]);
    expect(flagged(asAnswers('https://th.wikipedia.org/wiki/x'))).toEqual([]);
  });

  it('flags none when the bot is English and the paragraph itself is the (Thai) question', () => {
    const rows = paragraphs.map((paragraph, index) => ({
      table: 'xquad',
      name: String(index),
      question: paragraph,
      answer: paragraph,
      language: 'en' as const,
    }));
    expect(flagged(rows)).toEqual([]);
  });
});
