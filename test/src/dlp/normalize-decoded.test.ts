import { describe, expect, it } from 'vitest';
import { decodedEdits } from '../../../src/dlp/normalize-decoded.js';
import { entityEdits, percentEdits } from '../../../src/dlp/normalize-escapes.js';
import { type Edit, fragmentsOf } from '../../../src/dlp/normalize-fragments.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { fake, randomText } from '../../support/fake-tokens.js';

// Encoded credentials (base64, hex, percent-escapes, HTML character references) are decoded where they occur;
// blocks that decode to random bytes (hashes, UUIDs, images, keys) and a URL's or a page's odd escape are not.

type Finder = (text: string) => Edit[];

const github = fake.githubClassic();
const password = `${randomText(7, 401)}!${randomText(6, 402)}#`;
const percent = (value: string) => [...Buffer.from(value)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
const entities = (value: string) =>
  [...value].map((character, index) => (index % 2 ? `&#${character.charCodeAt(0)};` : `&#x${character.charCodeAt(0).toString(16)};`)).join('');

describe('decoded forms: the encoding is undone', () => {
  const cases: [string, Finder, string, string][] = [
    ['base64', decodedEdits, `โทเค็นแบบ base64: ${Buffer.from(github).toString('base64')} ครับ`, github],
    ['base64url without padding', decodedEdits, `value ${Buffer.from(`${github}?`).toString('base64url')}.`, github],
    ['a base64 password after its label', decodedEdits, `รหัสผ่าน = ${Buffer.from(password).toString('base64')}`, `รหัสผ่าน = ${password}`],
    ['hex', decodedEdits, `hex: ${Buffer.from(github).toString('hex')}`, github],
    ['upper-case hex', decodedEdits, `${Buffer.from(github).toString('hex').toUpperCase()}`, github],
    ['percent-escapes', percentEdits, `ค่า ${percent(github)} ครับ`, github],
    ['percent-escapes, then plain characters', percentEdits, `token=${percent(github.slice(0, 10))}${github.slice(10)}`, github],
    ['decimal and hex character references', entityEdits, `<code>${entities(github)}</code>`, github],
    ['named references', entityEdits, `ghp&lowbar;${github.slice(4, 10)}&period;&period;&amp;&colon;&sol;&equals;`, `ghp_${github.slice(4, 10)}..&:/=`],
  ];
  it.each(cases)('%s', (_name, find, text, expected) => {
    expect(fragmentsOf(text, find(text))).toContain(expected);
  });
});

describe('decoded forms: random bytes and ordinary escapes are left alone', () => {
  const png = Buffer.from(Array.from({ length: 300 }, (_, index) => (index * 7919 + 13) % 256));
  const texts: [string, string][] = [
    ['a base64 image data URI', `<img src="data:image/png;base64,${png.toString('base64')}">`],
    ['a git SHA', 'commit 3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345 (HEAD -> main)'],
    ['a SHA-256', `sha256: ${'9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'}`],
    ['a UUID list', '123e4567-e89b-12d3-a456-426614174000\n550e8400-e29b-41d4-a716-446655440000'],
    ['a hex colour table', '| สี | รหัส |\n|---|---|\n| แดง | #ff0000 |\n| เขียว | #00ff00 |\n| น้ำเงิน | #0000ff |'],
    ['a long English word and a path', 'internationalization in /usr/local/share/applications/firefox'],
    ['a URL with %20', 'https://example.com/search?q=hello%20world%20and%20more&lang=th'],
    ['HTML with &nbsp;', '<p>สวัสดี&nbsp;ครับ&nbsp;&nbsp;&amp; welcome &lt;b&gt;</p>'],
  ];
  it.each(texts)('%s', (_name, text) => {
    for (const find of [decodedEdits, percentEdits, entityEdits]) expect(find(text)).toEqual([]);
    expect(scanForCredentials(text)).toEqual({ found: false });
  });

  it('finds a JWT as itself and does not decode its segments', () => {
    const jwt = fake.jwt();
    expect(decodedEdits(`Bearer ${jwt}`)).toEqual([]);
    expect(scanForCredentials(`Bearer ${jwt}`)).toEqual({ found: true, kinds: ['jwt'] });
  });

  it('bounds the work on 960 KB of base64', () => {
    const text = Buffer.from('a'.repeat(720_000)).toString('base64');
    const started = performance.now();
    expect(decodedEdits(text)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('configured secrets, encoded', () => {
  const secret = `saeng-${randomText(24, 403)}`;
  const encoded: [string, string][] = [
    ['base64', Buffer.from(secret).toString('base64')],
    ['hex', Buffer.from(secret).toString('hex')],
    ['percent-escapes', percent(secret)],
    ['character references', entities(secret)],
  ];
  it.each(encoded)('%s', (_name, text) => {
    expect(scanForCredentials(`ค่าคือ ${text} ครับ`, { secrets: [secret] })).toEqual({ found: true, kinds: ['configured-secret'] });
  });
});
