import type { z } from 'zod';
import { pick, say, type Localized } from './shared/i18n.js';
import type { Language } from './shared/types.js';

// A bad configuration in plain words: one line per variable, its value shown safely, and the form it wants, in
// Thai or English. zod's own wording ("expected number, received NaN") is never shown.

/** One bad variable: its name, its value as it may be shown (undefined when unset), and the form it wants. */
export interface ConfigProblem {
  variable: string;
  shown: string | undefined;
  expected: Localized;
}

const heading: Localized = { th: 'ตั้งค่าไม่ถูกต้อง:', en: 'Invalid configuration:' };
const got: Localized = { th: ' (ตอนนี้ตั้งไว้เป็น {value})', en: ' (got {value})' };
const whereToLook: Localized = {
  th: 'แก้ค่าในไฟล์ .env หรือตัวแปรสภาพแวดล้อม (ดูตัวอย่างใน .env.example และตารางการตั้งค่าใน docs/configuration.md)',
  en: 'Fix it in .env or the environment (see .env.example and the configuration table in docs/configuration.md).',
};

export class ConfigError extends Error {
  /** The problems in English, one line each (`NAME: expected … (got "…")`). */
  readonly problems: string[];

  constructor(readonly details: readonly ConfigProblem[]) {
    const problems = details.map((problem) => problemLine(problem, 'en'));
    super(`${heading.en}\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }

  /** What the user reads: a heading, one line per bad variable, and where to fix it. */
  describe(language: Language): string {
    const lines = this.details.map((problem) => `  - ${problemLine(problem, language)}`);
    return [pick(heading, language), ...lines, pick(whereToLook, language)].join('\n');
  }
}

function problemLine(problem: ConfigProblem, language: Language): string {
  const value = problem.shown === undefined ? '' : say(got, language, { value: problem.shown });
  return `${problem.variable}: ${pick(problem.expected, language)}${value}`;
}

/** The form a variable wants, from the zod issue, when the schema gave the variable no hint of its own. */
export function expectedFromIssue(issue: z.core.$ZodIssue): Localized {
  switch (issue.code) {
    case 'invalid_value': {
      const values = issue.values.map(String).join(', ');
      return { th: `ต้องเป็นหนึ่งใน: ${values}`, en: `expected one of: ${values}` };
    }
    case 'invalid_type':
      return issue.expected === 'number' || issue.expected === 'int'
        ? { th: 'ต้องเป็นตัวเลข', en: 'expected a number' }
        : { th: 'รูปแบบไม่ถูกต้อง', en: 'not in the expected form' };
    case 'too_small':
      return issue.origin === 'number'
        ? { th: `ต้องไม่น้อยกว่า ${String(issue.minimum)}`, en: `expected at least ${String(issue.minimum)}` }
        : { th: 'ต้องไม่เว้นว่าง', en: 'expected a value, not empty' };
    case 'too_big':
      return issue.origin === 'number'
        ? { th: `ต้องไม่เกิน ${String(issue.maximum)}`, en: `expected at most ${String(issue.maximum)}` }
        : { th: 'ยาวเกินไป', en: 'too long' };
    case 'invalid_format':
      return issue.format === 'url'
        ? { th: 'ต้องเป็น URL ที่ขึ้นต้นด้วย http:// หรือ https://', en: 'expected an http(s) URL' }
        : { th: 'รูปแบบไม่ถูกต้อง', en: 'not in the expected form' };
    case 'custom':
    case 'invalid_element':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      return { th: 'ค่านี้ใช้ไม่ได้', en: 'not a usable value' };
  }
}

const longestShown = 120;

/**
 * The value as an error line may show it: a secret never (`***`), a URL without its password, a long value cut.
 * `isSecret` says which variables hold secrets (config.ts).
 */
export function shownValue(variable: string, value: string, isSecret: (variable: string) => boolean): string {
  if (isSecret(variable)) return '"***"';
  let shown = withoutUrlPassword(value);
  if (shown.length > longestShown) shown = `${shown.slice(0, longestShown)}…`;
  return JSON.stringify(shown);
}

function withoutUrlPassword(value: string): string {
  if (!value.includes('@')) return value;
  try {
    const url = new URL(value);
    if (!url.password) return value;
    url.password = '***';
    return url.href;
  } catch {
    // Not a URL we can take apart, but it has an '@': it may hold credentials, so show none of it.
    return '***';
  }
}
