import { describe, expect, it } from 'vitest';
import { type Edit, fragmentsOf } from '../../../src/dlp/normalize-fragments.js';
import { spaceGroupEdits } from '../../../src/dlp/normalize-groups.js';
import { partEdits } from '../../../src/dlp/normalize-parts.js';
import { separatedCharacterEdits } from '../../../src/dlp/normalize-separated.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { fake, randomText } from '../../support/fake-tokens.js';

// A token with one separator between every character, in space-separated groups, or cut into labelled lines,
// list items and table cells is read whole again; prose, numbers, tables and Thai abbreviations are not.

const github = fake.githubClassic();
const aws = fake.awsKeyId();
const password = `${randomText(7, 501)}!${randomText(6, 502)}#`;
const telegram = fake.telegramBot();
/** A service-role JWT of about 700 characters: each half is longer than a short token's part. */
const longJwt = `${fake.jwt()}${randomText(560, 503)}`;
const separated = (value: string, separator: string) => [...value].join(separator);
const groups = (value: string, size: number) => value.match(new RegExp(`.{1,${size}}`, 'g'))?.join(' ') ?? value;
/** Every set of edits of a finder that returns several, as one text (scanForms does the same). */
const allSets =
  (find: (text: string) => Edit[][]): ((text: string) => string) =>
  (text) =>
    find(text)
      .map((edits) => fragmentsOf(text, edits))
      .join('\n\n');
const bySeparated = (text: string) => fragmentsOf(text, separatedCharacterEdits(text));
const byGroups = allSets(spaceGroupEdits);
const byParts = allSets(partEdits);

describe('separated characters, groups and parts: the token is read whole', () => {
  const cases: [string, (text: string) => string, string, string][] = [
    ['dots', bySeparated, `โทเค็น ${separated(github, '.')} ครับ`, github],
    ['dots and spaces', bySeparated, `token: ${separated(github, '. ')}.`, github],
    ['commas', bySeparated, `${separated(aws, ', ')}`, aws],
    ['underscores (the token has its own)', bySeparated, `ค่า ${separated(github, '_')} ครับ`, github],
    ['slashes between spaces', bySeparated, `ได้เลย: ${separated(github, ' / ')} นะ`, github],
    ['vertical bars', bySeparated, `${separated(password, '|')}`, password],
    ['middle dots', bySeparated, separated(github, '·'), github],
    ['bullets', bySeparated, separated(github, '•'), github],
    ['two spaces', bySeparated, `key ${separated(aws, '  ')} on line 12`, aws],
    ['one space, before a word', bySeparated, `The key ID ${separated(aws, ' ')} on line 12.`, ` ${aws} on`],
    ['a Thai letter', bySeparated, `รหัส ${separated(password, 'ก')} ครับ`, password],
    ['different Thai letters', bySeparated, [...github].map((character, index) => `${character}${'กขค'[index % 3]}`).join(''), github],
    ['groups of four', byGroups, `The key ID ${groups(aws, 4)} on line 12.`, aws],
    ['groups of five after a label of five', byGroups, `token ${groups(github, 5)} ok`, github],
    ['a Telegram token with spaces around its colon', byGroups, `bot ${telegram.replace(':', ' : ')}`, telegram],
    ['two labelled lines (Thai)', byParts, `รหัสผ่านของคุณคือ\nส่วนที่ 1: ${password.slice(0, 6)}\nส่วนที่ 2: ${password.slice(6)}\n`, `คือ ${password}`],
    ['part 1/2, part 2/2', byParts, `part 1/2: ${github.slice(0, 20)}\npart 2/2: ${github.slice(20)}`, github],
    ['list items', byParts, `- first half: \`${github.slice(0, 20)}\`\n- second half: \`${github.slice(20)}\``, github],
    ['a long JWT in two labelled halves', byParts, `ส่วนที่ 1: ${longJwt.slice(0, 300)}\nส่วนที่ 2: ${longJwt.slice(300)}\n`, longJwt],
    ['three numbered parts', byParts, `1. ${github.slice(0, 14)}\n2. ${github.slice(14, 28)}\n3. ${github.slice(28)}`, github],
    ['table cells of one row', byParts, `| ส่วนที่ 1 | ส่วนที่ 2 |\n|---|---|\n| ${github.slice(0, 20)} | ${github.slice(20)} |`, github],
    ['one cell per row', byParts, `| ${github.slice(0, 20)} |\n| ${github.slice(20)} |`, github],
    [
      'a JSON label above the parts',
      byParts,
      `"password": "\npart 1/2: ${password.slice(0, 6)}\npart 2/2: ${password.slice(6)}\n"`,
      `"password": "${password}"`,
    ],
  ];
  it.each(cases)('%s', (_name, undo, text, expected) => {
    expect(undo(text)).toContain(expected);
  });
});

describe('separated characters, groups and parts: prose and data are left alone', () => {
  const texts: [string, string][] = [
    ['Thai abbreviations with dots', 'ก.ข.ค. และ ม.ค. ก.พ. มี.ค. เม.ย. พ.ศ. 2569 ณ กทม.'],
    ['a version and an IP address', 'version 1.2.3.4.5.6.7.8.9 at 192.168.100.200'],
    ['a Markdown table rule', '|---|---|---|---|---|---|---|---|'],
    ['a spaced heading', 'S U M M A R Y'],
    ['an English sentence', 'This will make sure that each part of your code runs well, even when load is high.'],
    ['phone and card-like numbers', 'โทร 081 234 5678 หรือ 1234 5678 9012 3456'],
    ['a path', 'Open /a/b/c/d/e/f/g/h/i/j/k to see it'],
    ['a YAML block', 'host: db.internal\nport: 5432\nuser: app\nname: orders'],
    ['a table of words', '| ชื่อ | ค่า |\n|---|---|\n| timeout | 30 |\n| mode | fast |'],
  ];
  it.each(texts)('%s', (_name, text) => {
    expect(scanForCredentials(text)).toEqual({ found: false });
  });
  it.each(texts.slice(0, 6))('%s: no edit', (_name, text) => {
    expect(separatedCharacterEdits(text)).toEqual([]);
    expect(spaceGroupEdits(text).flat()).toEqual([]);
  });
});

describe('configured secrets, separated or split', () => {
  const secret = `saeng-${randomText(24, 503)}`;
  const written: [string, string][] = [
    ['dotted', separated(secret, '.')],
    ['with Thai letters', separated(secret, 'ข')],
    ['in groups', groups(secret, 5)],
    ['over two labelled lines', `\nส่วนที่ 1: ${secret.slice(0, 12)}\nส่วนที่ 2: ${secret.slice(12)}\n`],
    ['in two table cells', `\n| ${secret.slice(0, 12)} | ${secret.slice(12)} |\n`],
  ];
  it.each(written)('%s', (_name, text) => {
    expect(scanForCredentials(`ค่าคือ ${text} ครับ`, { secrets: [secret] })).toEqual({ found: true, kinds: ['configured-secret'] });
  });
});

describe('the round-three finders on Thai prose', () => {
  it('make no edit in any XQuAD-th paragraph or question', async () => {
    const { xquadSamples } = await import('../../support/dlp-corpus/negatives-prose.js');
    const { decodedEdits } = await import('../../../src/dlp/normalize-decoded.js');
    const { entityEdits, percentEdits } = await import('../../../src/dlp/normalize-escapes.js');
    const { reversedEdits } = await import('../../../src/dlp/normalize-reversed.js');
    const finders: ((text: string) => Edit[])[] = [
      separatedCharacterEdits,
      decodedEdits,
      percentEdits,
      entityEdits,
      reversedEdits,
      (text) => spaceGroupEdits(text).flat(),
      (text) => partEdits(text).flat(),
    ];
    const texts = xquadSamples().map((sample) => sample.text);
    expect(texts.length).toBeGreaterThan(1_000);
    expect(texts.filter((text) => finders.some((find) => find(text).length > 0))).toEqual([]);
  });
});
