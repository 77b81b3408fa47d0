import { say, type Localized } from '../../shared/i18n.js';
import { resolveKnowledgeBase } from './access.js';
import { textAfterWords } from './arguments.js';
import { escapeMarkdown, preview } from '../../shared/markdown.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  usage: { th: 'วิธีใช้: /kb search <คลัง> <คำค้น>', en: 'Usage: /kb search <kb> <query>' },
  nothing: { th: 'ไม่พบข้อความที่ตรงกับ “{query}” ในคลัง **{name}**', en: 'Nothing in **{name}** matches “{query}”.' },
  heading: { th: 'ผลค้นหา “{query}” ในคลัง **{name}**:', en: 'Results for “{query}” in **{name}**:' },
  hit: { th: '{rank}. **{title}** › ส่วนที่ {position} (คะแนน {score})', en: '{rank}. **{title}** › passage {position} (score {score})' },
} satisfies Record<string, Localized>;

const shownHits = 5;
const previewCharacters = 200;

/** `/kb search <kb> <query>`: what retrieval would give the model, for admins checking their documents. */
export const searchKnowledgeBase: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const reference = input.words[0];
  const query = textAfterWords(input.rest, 1);
  if (!reference || !query) return say(strings.usage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const name = escapeMarkdown(resolved.knowledgeBase.name);
  const shownQuery = escapeMarkdown(preview(query, 80));
  const hits = await store.search([resolved.knowledgeBase.id], query, shownHits);
  if (hits.length === 0) return say(strings.nothing, language, { query: shownQuery, name });
  const lines = hits.map((hit, index) =>
    [
      say(strings.hit, language, { rank: index + 1, title: escapeMarkdown(hit.documentTitle), position: hit.position + 1, score: hit.score.toFixed(2) }),
      `> ${escapeMarkdown(preview(hit.text, previewCharacters))}`,
    ].join('\n'),
  );
  return [say(strings.heading, language, { query: shownQuery, name }), ...lines].join('\n');
};
