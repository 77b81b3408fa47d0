import type { RetrievalHit } from '../../../knowledge/index.js';
import { preview } from '../../../shared/markdown.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { basePath } from './knowledge-format.js';

// GET /admin/kb/:id?q=…: what retrieval would hand the model for a question, as `/kb search` shows it — each
// passage with its document, page and score — so an admin can check their documents answer what they should.

const texts = {
  heading: { th: 'ทดลองค้นหา', en: 'Try a search' },
  label: { th: 'คำค้น (เช่น คำถามที่ผู้ใช้อาจถาม)', en: 'Query (a question users might ask)' },
  button: { th: 'ค้นหา', en: 'Search' },
  results: { th: 'ข้อความที่จะส่งให้โมเดลสำหรับ “{query}”', en: 'Passages the model would get for “{query}”' },
  nothing: { th: 'ไม่พบข้อความที่ตรงกับ “{query}” ในคลังนี้', en: 'Nothing in this knowledge base matches “{query}”.' },
  passage: { th: 'ส่วนที่ {position}', en: 'passage {position}' },
  page: { th: 'หน้า {page}', en: 'page {page}' },
  score: { th: 'คะแนน {score}', en: 'score {score}' },
} satisfies Record<string, Localized>;

/** As many passages as the chat's retrieval gives the model. */
export const shownHits = 5;
const maxQueryCharacters = 200;
const previewCharacters = 300;

/** The query of `?q=`, trimmed and bounded; '' when there is none. */
export function searchQueryOf(admin: Pick<AdminRequest, 'query'>): string {
  return Array.from((admin.query.get('q') ?? '').trim())
    .slice(0, maxQueryCharacters)
    .join('');
}

export async function searchHits(services: Pick<AdminServices, 'knowledge'>, knowledgeBaseId: string, query: string): Promise<RetrievalHit[]> {
  return query === '' ? [] : services.knowledge.search([knowledgeBaseId], query, shownHits);
}

function hitItem(hit: RetrievalHit, language: AdminRequest['language']): Html {
  const where = [say(texts.passage, language, { position: hit.position + 1 }), hit.page === undefined ? '' : say(texts.page, language, { page: hit.page })]
    .filter((part) => part !== '')
    .join(' · ');
  return html`<li class="hit">
    <p>
      <strong class="hit-title">${hit.documentTitle}</strong> · <span class="muted">${where}</span> ·
      <span class="score">${say(texts.score, language, { score: hit.score.toFixed(3) })}</span>
    </p>
    <blockquote>${preview(hit.text, previewCharacters)}</blockquote>
  </li>`;
}

export function searchSection(knowledgeBaseId: string, query: string, hits: readonly RetrievalHit[], admin: AdminRequest): Html {
  const { language } = admin;
  const t = (text: Localized) => pick(text, language);
  const results =
    query === ''
      ? ''
      : hits.length === 0
        ? html`<p class="muted" id="kb-search-results">${say(texts.nothing, language, { query })}</p>`
        : html`<h3>${say(texts.results, language, { query })}</h3>
            <ol id="kb-search-results" class="hits">
              ${hits.map((hit) => hitItem(hit, language))}
            </ol>`;
  return html`<section id="kb-search-section">
    <h2>${t(texts.heading)}</h2>
    <form method="get" action="${basePath(knowledgeBaseId)}" id="kb-search" role="search">
      <label for="kb-search-query">${t(texts.label)}</label>
      <input type="search" id="kb-search-query" name="q" maxlength="${maxQueryCharacters}" value="${query}" />
      <button type="submit">${t(texts.button)}</button>
    </form>
    ${results}
  </section>`;
}
