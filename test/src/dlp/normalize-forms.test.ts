import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { backtickEdits, concatenationEdits } from '../../../src/dlp/normalize-concatenation.js';
import { scanForms } from '../../../src/dlp/normalize-forms.js';
import { type Edit, fragmentsOf } from '../../../src/dlp/normalize-fragments.js';
import { lineBreakEdits, wrappedLineEdits } from '../../../src/dlp/normalize-line-breaks.js';
import { separatedCharacterEdits as spacedCharacterEdits } from '../../../src/dlp/normalize-separated.js';
import { hyphenEdits } from '../../../src/dlp/normalize-separators.js';
import { normalizeForScan } from '../../../src/dlp/normalize-text.js';
import { fake, randomText } from '../../support/fake-tokens.js';

// Each normalization form undoes one obfuscation where it occurs and leaves prose, code and Thai text alone.

type Finder = (text: string) => Edit[];

const tokenLineBreakEdits: Finder = (text) => lineBreakEdits(text).joined;
const upperCaseLineBreakEdits: Finder = (text) => lineBreakEdits(text).spaced;

const finders: [string, Finder][] = [
  ['hyphen chains', hyphenEdits],
  ['spaced characters', spacedCharacterEdits],
  ['concatenation', concatenationEdits],
  ['backticks', backtickEdits],
  ['token line breaks', tokenLineBreakEdits],
  ['upper-case line breaks', upperCaseLineBreakEdits],
];

function undone(find: Finder, text: string): string {
  return fragmentsOf(text, find(text));
}

function groupsOf(token: string, size: number): string {
  return token.match(new RegExp(`.{1,${size}}`, 'g'))?.join('-') ?? token;
}

const github = fake.githubClassic();
const awsSecret = fake.awsSecret();
const password = `${randomText(6, 301)}!${randomText(5, 302)}#`;

describe('normalization forms: the obfuscation is undone', () => {
  const cases: [string, Finder, string, string][] = [
    ['the whole token in groups of 4', hyphenEdits, `โทเค็น: ${groupsOf(github, 4)} ครับ`, github],
    ['a prefix, then groups of 4', hyphenEdits, `token ${github.slice(0, 8)}-${groupsOf(github.slice(8), 4)}.`, github],
    ['groups of 5 after a glued label', hyphenEdits, `key=${groupsOf(awsSecret, 5)}`, `key=${awsSecret}`],
    ['a hyphen between every character', hyphenEdits, `ค่า ${[...github].join('-')} ครับ`, github],
    ['a token with its own hyphens, one hyphen between characters', hyphenEdits, [...fake.openaiProject()].join('-'), fake.openaiProject()],
    ['a space between every character', spacedCharacterEdits, `Your token is ${[...github].join(' ')} ok`, github],
    ['spaced characters inside quotes', spacedCharacterEdits, `"secret": "${[...awsSecret].join(' ')}"`, `"${awsSecret}"`],
    ['a spaced password', spacedCharacterEdits, `รหัสผ่าน = ${[...password].join(' ')} ครับ`, password],
    ['"first half" + "second half"', concatenationEdits, `ค่าคือ "${github.slice(0, 20)}" + "${github.slice(20)}" ครับ`, `ค่าคือ ${github} ครับ`],
    ['single quotes and a line break', concatenationEdits, `key = '${awsSecret.slice(0, 15)}' +\n    '${awsSecret.slice(15)}';`, awsSecret],
    ['backtick quotes, three parts', concatenationEdits, `\`${github.slice(0, 9)}\` + \`${github.slice(9, 30)}\` + \`${github.slice(30)}\``, github],
    ['a password with symbols', concatenationEdits, `"password": "${password.slice(0, 5)}" + "${password.slice(5)}"`, password],
    ['a backtick inside a token', backtickEdits, `ใช้ \`${github.slice(0, 12)}\`${github.slice(12)}\``, github],
    ['two code spans with a space', backtickEdits, `\`${github.slice(0, 12)}\` \`${github.slice(12)}\``, github],
    ['adjacent code spans', backtickEdits, `\`${github.slice(0, 12)}\`\`${github.slice(12)}\``, github],
    ['a token split before a word', tokenLineBreakEdits, `token:\n${github.slice(0, 20)}\n${github.slice(20)}\nUse it well`, `${github}\nUse`],
    ['a token split after trailing spaces, in a quote', tokenLineBreakEdits, `> ${github.slice(0, 20)}   \n> ${github.slice(20)} ok`, github],
    ['a labelled password split after its full stop', tokenLineBreakEdits, 'Password: Durian.\n7823$', 'Password: Durian.7823$'],
    ['a Thai-labelled password split before a word', tokenLineBreakEdits, 'ตั้งค่ารหัสผ่านเป็น Somchai\n_6952\nUse แล้ว', 'Somchai_6952'],
    ['a PEM header wrapped between words', upperCaseLineBreakEdits, '-----BEGIN RSA PRIVATE\nKEY-----', '-----BEGIN RSA PRIVATE KEY-----'],
  ];
  it.each(cases)('%s', (_name, find, text, expected) => {
    expect(undone(find, text)).toContain(expected);
  });

  it('keeps a long token whole in its fragment, with the label before it', () => {
    const jwt = fake.jwt();
    const text = `${'ข้อความ '.repeat(40)}Authorization: Bearer ${jwt.slice(0, 60)}\`${jwt.slice(60)} end`;
    expect(undone(backtickEdits, text)).toContain(`Authorization: Bearer ${jwt} end`);
  });
});

const thaiParagraphs = z
  .object({ data: z.array(z.object({ paragraphs: z.array(z.object({ context: z.string(), qas: z.array(z.object({ question: z.string() })) })) })) })
  .parse(JSON.parse(readFileSync(new URL('../../fixtures/knowledge/xquad.th.json', import.meta.url), 'utf8')))
  .data.flatMap((article) => article.paragraphs.flatMap((paragraph) => [paragraph.context, ...paragraph.qas.map((question) => question.question)]));

describe('normalization forms: prose, code and Thai text are left alone', () => {
  const prose: [string, string][] = [
    ['hyphenated words', 'A state-of-the-art, well-known, up-to-date and easy-to-use tool.'],
    ['grades and ranges', 'Grades A-B-C-D-F; pages 10-20-30; 2026-12-31; call 081-234-5678.'],
    ['a UUID', 'order 123e4567-e89b-12d3-a456-426614174000'],
    ['a Markdown table', '| รายการ | ค่า |\n|---|---|\n| timeout | 30 |\n| mode | fast |'],
    ['a spaced heading', 'S U M M A R Y\n\nW E L C O M E'],
    ['code spans in a sentence', 'Run `npm run build`, then `node dist/main.js`. Or `a`, `b`.'],
    ['string concatenation of words', 'const greeting = "Hello, " + name + "!";'],
    ['code lines', 'function hash(input) {\n  return createHash("sha256").update(input).digest("hex");\n}\nconst total = price * 1.07;'],
    ['English prose over lines', 'The quick brown fox\njumps over the lazy dog.\nIt was fine.'],
    ['a labelled line before a list', 'Steps to: reset.\nThen open settings, and: wait\n- done'],
    ['a PEM header named in prose', 'The file should begin with -----BEGIN OPENSSH PRIVATE KEY----- and nothing else.'],
  ];
  it.each(prose)('%s', (_name, text) => {
    for (const [finder, find] of finders) expect(find(text), finder).toEqual([]);
  });

  it('makes no edit in any XQuAD-th paragraph or question', () => {
    expect(thaiParagraphs.length).toBeGreaterThan(1_000);
    for (const [finder, find] of finders)
      expect(
        thaiParagraphs.filter((paragraph) => find(paragraph).length > 0),
        finder,
      ).toEqual([]);
  });
});

describe('scanForms', () => {
  it('is the normalized text alone when nothing is obfuscated', () => {
    expect(scanForms('ข้อความธรรมดา ไม่มีอะไร')).toEqual([{ text: 'ข้อความธรรมดา ไม่มีอะไร', byLabel: true }]);
  });

  it('adds forms beside the text, never in its place', () => {
    const text = `key: ${groupsOf(awsSecret, 4)}\nline two`;
    const forms = scanForms(text);
    expect(forms[0]).toEqual({ text, byLabel: true });
    expect(forms.some((form) => form.text.includes(awsSecret))).toBe(true);
  });

  it('does not give the fully joined text to the label search (a value would be glued to the next word)', () => {
    const forms = scanForms('API_KEY=abc\nKeep it safe');
    expect(forms.find((form) => form.text.includes('abcKeep'))?.byLabel).toBe(false);
  });

  it('joins every wrapped line of a token, through blank lines and a quote, and keeps its label', () => {
    const lines = github.match(/.{1,10}/g) ?? [];
    const text = `${'ย่อหน้าภาษาไทย '.repeat(30)}\n\ntoken:\n> ${lines.join('\n> ')}\n\n${lines.join('  \n\n')}\nจบ`;
    const joined = scanForms(text).filter((form) => !form.byLabel);
    // Both copies are one run of ASCII apart from line breaks; the Thai word after them stays on its line.
    expect(joined.map((form) => form.text).join('')).toContain(`token:${github}${github}\nจบ`);
  });

  it("makes no joined form where a line break meets Thai or the text's edge (a paragraph is not copied)", () => {
    const text = `\nย่อหน้าแรก ghp\nย่อหน้าที่สอง\n\nคำว่า token\n`;
    expect(wrappedLineEdits(text)).toEqual([]);
    expect(scanForms(text)).toEqual([{ text, byLabel: true }]);
    expect(wrappedLineEdits('abc \n\n  def')).toEqual([{ start: 3, end: 8, replacement: '' }]);
  });
});

describe('normalizeForScan', () => {
  it('turns full-width letters into ASCII and leaves ASCII and Thai as they are (no NFKC needed for them)', () => {
    expect(normalizeForScan('ｓｋ＿ｌｉｖｅ＿')).toBe('sk_live_');
    const thai = 'กรุงเทพมหานครเป็นเมืองหลวง ghp_abc';
    expect(normalizeForScan(thai)).toBe(thai);
  });

  it("is the whole text's NFKC without invisible characters, though it reads only the words that need it", () => {
    // Combining marks, compositions with ASCII (`<` + U+0338), Hangul jamo, ligatures, no-break and ideographic
    // spaces, emoji, Thai marks and escapes, around every kind of whitespace. Apart from ำ, which NFKC splits only
    // in the words it reads (no credential or label holds it).
    const pieces = [
      'a',
      'e',
      '<',
      ' ',
      '\t',
      '\n',
      '\r',
      'ก',
      'ำ',
      '\u0e48',
      '\u0301',
      '\u0338',
      'ｇ',
      'Å',
      '\u00a0',
      'ﬁ',
      '\u3000',
      '\u200b',
      '\ufeff',
      '\\_',
      '😀',
      '\u1100',
      '\u1161',
      '\u11a8',
      '\u0f71',
      '\u0f72',
    ];
    const wholeText = (text: string) =>
      text
        .normalize('NFKC')
        .replace(/[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, '')
        .replace(/\\([!-/:-@[-`{-~])/g, '$1');
    const withoutAm = (text: string) => text.replaceAll('ำ', '\u0e4d\u0e32');
    let seed = 7;
    const next = (range: number) => ((seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) >>> 8) % range;
    for (let sample = 0; sample < 5_000; sample++) {
      const text = Array.from({ length: 1 + next(sample % 50 === 0 ? 1_500 : 30) }, () => pieces[next(pieces.length)]).join('');
      expect(withoutAm(normalizeForScan(text)), JSON.stringify(text)).toBe(withoutAm(wholeText(text)));
    }
  });
});
