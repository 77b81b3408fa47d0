import fc from 'fast-check';

// Markdown documents as the agent writes them, for the property tests: paragraphs of English words and of Thai
// words with no spaces between them, emphasis, links, code spans, literal < & >, headings, nested lists,
// tables and long code blocks. Words carry no Markdown markers of their own, so whatever marker is left in a
// LINE part came from the renderer.

const englishWords = ['the', 'answer', 'is', 'ready', 'server', 'install', 'Node', 'version', 'config', 'quickly', 'example', 'data'];
const thaiWords = ['สวัสดี', 'ครับ', 'วันนี้', 'อากาศ', 'ดี', 'มาก', 'เรา', 'ไป', 'เที่ยว', 'ทะเล', 'กัน', 'ไหม', 'น้ำ', 'ที่', 'ก่อน', 'เกี่ยว', 'ผู้ใหญ่'];
const literals = ['<b>', '&', 'a < b', 'x > y', '&amp;', '<div>hi</div>', 'AT&T'];

const english = fc.array(fc.constantFrom(...englishWords), { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));
// Thai writes no spaces between words: only between phrases.
const thai = fc.array(fc.constantFrom(...thaiWords), { minLength: 1, maxLength: 40 }).map((words) => words.join(''));
const plain = fc.oneof(english, thai);

const inline: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: plain },
  { weight: 1, arbitrary: plain.map((text) => `**${text}**`) },
  { weight: 1, arbitrary: plain.map((text) => `*${text}*`) },
  { weight: 1, arbitrary: plain.map((text) => `~~${text}~~`) },
  { weight: 1, arbitrary: fc.constantFrom('npm install', 'a<b', 'x && y').map((text) => `\`${text}\``) },
  {
    weight: 1,
    arbitrary: fc.tuple(plain, fc.constantFrom('https://example.com/a', 'https://th.wikipedia.org/wiki/ไทย')).map(([text, url]) => `[${text}](${url})`),
  },
  { weight: 1, arbitrary: fc.constant('https://example.org/path?q=1') },
  { weight: 1, arbitrary: fc.constantFrom(...literals) },
);

// A paragraph starts with a word: a line that starts with raw HTML would open an HTML block (CommonMark).
const paragraph = fc.tuple(plain, fc.array(inline, { maxLength: 30 })).map(([first, pieces]) => [first, ...pieces].join(' '));
const longThai = fc.array(fc.constantFrom(...thaiWords), { minLength: 200, maxLength: 1500 }).map((words) => words.join(''));
const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), plain).map(([depth, text]) => `${'#'.repeat(depth)} ${text}`);

function list(depth: number): fc.Arbitrary<string> {
  const item: fc.Arbitrary<[string, string | undefined]> =
    depth >= 2 ? paragraph.map((text): [string, undefined] => [text, undefined]) : fc.tuple(paragraph, fc.option(list(depth + 1), { nil: undefined }));
  return fc.tuple(fc.boolean(), fc.array(item, { minLength: 1, maxLength: 5 })).map(([ordered, items]) =>
    items
      .map(([text, nested], index) => {
        const marker = ordered ? `${index + 1}. ` : '- ';
        const indent = ' '.repeat(marker.length);
        const children = nested === undefined ? '' : `\n${nested.replace(/^/gm, indent)}`;
        return `${marker}${text}${children}`;
      })
      .join('\n'),
  );
}

const cell = fc.oneof(fc.constantFrom(...englishWords, ...thaiWords), fc.integer({ min: 0, max: 99999 }).map(String));
const table = fc
  .integer({ min: 2, max: 4 })
  .chain((columns) =>
    fc.tuple(
      fc.array(cell, { minLength: columns, maxLength: columns }),
      fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 6 }),
    ),
  )
  .map(([header, rows]) => [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n'));

const codeLine = fc.constantFrom('const total = items.length;', 'if (a < b && c > d) return;', 'print("สวัสดี")', '  x = 1', '', 'echo "$HOME" & wait');
const codeBlock = fc
  .tuple(fc.constantFrom('ts', 'python', '', 'sh'), fc.array(codeLine, { minLength: 1, maxLength: 400 }))
  .map(([language, lines]) => `\`\`\`${language}\n${lines.join('\n')}\n\`\`\``);
const quote = paragraph.map((text) => `> ${text}`);

const block = fc.oneof(
  { weight: 5, arbitrary: paragraph },
  { weight: 1, arbitrary: longThai },
  { weight: 2, arbitrary: heading },
  { weight: 2, arbitrary: list(0) },
  { weight: 2, arbitrary: table },
  { weight: 2, arbitrary: codeBlock },
  { weight: 1, arbitrary: quote },
);

export const markdownDocument = fc.array(block, { minLength: 1, maxLength: 14 }).map((blocks) => blocks.join('\n\n'));
