import type { Draw } from './draw.js';
import { type Obfuscate, oneLine, split } from './obfuscations.js';

// What a user gets by asking the model to write a credential "with dots between the letters", "in base64",
// "backwards", "in two parts": one separator between every character, encodings, the characters reversed, and
// the value cut into labelled lines, table cells or space-separated groups.

const thaiLetters = ['ก', 'ข', 'ค', 'ม', 'อ'];

const separated = (separators: readonly string[]): Obfuscate =>
  oneLine((value, draw) => {
    const separator = draw.pick(separators);
    return [...value].join(separator);
  });

const htmlNamed: Record<string, string> = { _: '&lowbar;', '.': '&period;', '&': '&amp;', '-': '&hyphen;', '/': '&sol;', ':': '&colon;', '=': '&equals;' };

function htmlEntity(character: string, draw: Draw): string {
  const code = character.codePointAt(0) ?? 0;
  const named = htmlNamed[character];
  if (named && draw.int(0, 1) === 0) return named;
  return draw.int(0, 1) === 0 ? `&#${code};` : `&#x${code.toString(16)};`;
}

const partLabels: readonly (readonly [string, string])[] = [
  ['ส่วนที่ 1: ', 'ส่วนที่ 2: '],
  ['part 1/2: ', 'part 2/2: '],
  ['- first half: ', '- second half: '],
  ['1. ', '2. '],
];

export const encodedObfuscations = {
  dotted: separated(['.', '. ', '·', '•']),
  'comma-separated': separated([',', ', ']),
  'underscore-separated': separated(['_']),
  'slash-separated': separated(['/', '|', ' / ']),
  'thai-separated': oneLine((value, draw) => [...value].join(draw.pick(thaiLetters))),
  base64: (value, draw) => Buffer.from(value).toString(draw.int(0, 3) === 0 ? 'base64url' : 'base64'),
  hex: (value, draw) => {
    const hex = Buffer.from(value).toString('hex');
    return draw.int(0, 1) === 0 ? hex : hex.toUpperCase();
  },
  'percent-encoded': (value) => [...Buffer.from(value)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  'html-entities': (value, draw) => [...value].map((character) => htmlEntity(character, draw)).join(''),
  reversed: oneLine((value) => [...value].reverse().join('')),
  'two-labelled-lines': oneLine((value, draw) => {
    const [head, tail] = split(value, draw);
    const [first, second] = draw.pick(partLabels);
    return `\n${first}${head}\n${second}${tail}\n`;
  }),
  'table-cells': oneLine((value, draw) => {
    const [head, tail] = split(value, draw);
    return `\n\n| ส่วนที่ 1 | ส่วนที่ 2 |\n|---|---|\n| ${head} | ${tail} |\n\n`;
  }),
  'space-groups': (value, draw) => {
    if (value.length < 12 || /\s/.test(value)) return undefined;
    const size = draw.int(4, 8);
    return value.match(new RegExp(`.{1,${size}}`, 'g'))?.join(' ');
  },
} satisfies Record<string, Obfuscate>;
