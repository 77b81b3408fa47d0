import type { Draw } from './draw.js';
import { encodedObfuscations } from './obfuscations-encoded.js';
import type { ObfuscationForm } from './sample.js';

// The disguises a credential takes on its way out: wrapped lines, invisible characters, Markdown escapes, code
// spans, full-width letters, separators between characters or groups, string concatenation, and the partial PEM
// blocks an answer cut short leaves. Each returns undefined where it does not apply (no `_` to escape, a block
// where a one-line disguise is meant).

export type Obfuscate = (value: string, draw: Draw) => string | undefined;

const invisibles = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
const nextLineWords = ['Then', 'Note', 'Use', 'หมายเหตุ', 'จากนั้น'];

const isBlock = (value: string) => value.includes('\n');
const isPem = (value: string) => value.startsWith('-----BEGIN ');

export function split(value: string, draw: Draw): [string, string] {
  const at = draw.int(Math.ceil(value.length * 0.35), Math.floor(value.length * 0.65));
  return [value.slice(0, at), value.slice(at)];
}

export function oneLine(obfuscate: (value: string, draw: Draw) => string): Obfuscate {
  return (value, draw) => (isBlock(value) ? undefined : obfuscate(value, draw));
}

function pemParts(value: string): { header: string; body: string[]; footer: string } | undefined {
  if (!isPem(value)) return undefined;
  const lines = value.split('\n');
  return { header: lines[0] ?? '', body: lines.slice(1, -1), footer: lines.at(-1) ?? '' };
}

function insertInvisibles(value: string, draw: Draw): string {
  const characters = [...value];
  const count = Math.min(3, characters.length - 2);
  for (let index = 0; index < count; index++) characters.splice(draw.int(1, characters.length - 1), 0, draw.pick(invisibles));
  return characters.join('');
}

const fullWidth = (value: string) =>
  [...value]
    .map((character) => {
      const code = character.charCodeAt(0);
      if (code === 0x20) return '\u3000';
      return code > 0x20 && code < 0x7f ? String.fromCharCode(code + 0xfee0) : character;
    })
    .join('');

export const obfuscations: Record<ObfuscationForm, Obfuscate> = {
  'line-break': oneLine((value, draw) => split(value, draw).join('\n')),
  // The tail ends its line and the next line starts with a word: joining lines glues the word to the token.
  'line-break-word': oneLine((value, draw) => `${split(value, draw).join('\n')}\n${draw.pick(nextLineWords)}`),
  'zero-width': (value, draw) => {
    const pem = pemParts(value);
    if (!pem) return insertInvisibles(value, draw);
    return [insertInvisibles(pem.header, draw), ...pem.body.map((line, index) => (index === 0 ? insertInvisibles(line, draw) : line)), pem.footer].join('\n');
  },
  'markdown-escape': (value) => (/[_*]/.test(value) ? value.replace(/[_*]/g, (character) => `\\${character}`) : undefined),
  backticks: oneLine((value, draw) => {
    const [head, tail] = split(value, draw);
    return draw.pick([`\`${head}\`\`${tail}\``, `\`${head}\`${tail}`, `${head}\`${tail}\``]);
  }),
  'full-width': (value) => fullWidth(value),
  'hyphen-groups': (value) => (/^[^\s;/]{12,}$/.test(value) ? (value.match(/.{1,4}/g) ?? []).join('-') : undefined),
  spaced: oneLine((value) => [...value].join(' ')),
  hyphenated: oneLine((value) => [...value].join('-')),
  concatenation: oneLine((value, draw) => {
    const [head, tail] = split(value, draw);
    return `"${head}" + "${tail}"`;
  }),
  'pem-header-wrapped': (value) => {
    const pem = pemParts(value);
    return pem ? [pem.header.replace(/ KEY-----$/, '\nKEY-----'), ...pem.body, pem.footer].join('\n') : undefined;
  },
  // DER base64 without its armour (MII…, or OpenSSH's b3BlbnNzaC1rZXktdjE…).
  'pem-body-only': (value) => pemParts(value)?.body.join('\n'),
  // An answer cut off two lines into the key.
  'pem-cut-off': (value) => {
    const pem = pemParts(value);
    return pem ? [pem.header, ...pem.body.slice(0, 2)].join('\n') : undefined;
  },
  ...encodedObfuscations,
};
