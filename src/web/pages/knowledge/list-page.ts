import { formatBytes, maxDescriptionLength, type KnowledgeBaseSummary } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import type { AdminRequest } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { groupPath } from '../groups/group-path.js';
import { basePath } from './knowledge-format.js';
import { knownSpaces } from './known-spaces.js';
import { csrfField } from '../../form-fields.js';

// GET /admin/kb: the knowledge bases this session may see, by space, with what `/kb info` counts; and the form that
// creates one (the same rule for names as `/kb create`). The create route shows this page again with its error.

const texts = {
  title: { th: 'คลังความรู้', en: 'Knowledge bases' },
  none: { th: 'ยังไม่มีคลังความรู้ สร้างได้จากแบบฟอร์มด้านล่าง', en: 'No knowledge bases yet. Create one with the form below.' },
  space: { th: 'กลุ่ม {space}', en: 'Group {space}' },
  name: { th: 'ชื่อ', en: 'Name' },
  documents: { th: 'เอกสาร', en: 'Documents' },
  passages: { th: 'ส่วนข้อความ', en: 'Passages' },
  size: { th: 'ขนาดรวม', en: 'Total size' },
  bound: { th: 'ใช้ในห้องสนทนา', en: 'Used in chats' },
  create: { th: 'สร้างคลังความรู้ใหม่', en: 'Create a knowledge base' },
  nameLabel: { th: 'ชื่อคลัง', en: 'Name' },
  nameHint: {
    th: 'ใช้ตัวอักษร (ไทยได้) ตัวเลข _ . - ได้ไม่เกิน 40 ตัว และห้ามมีเว้นวรรค เช่น คู่มือ หรือ faq',
    en: 'Up to 40 letters (Thai too), digits, _ . - and no spaces, e.g. คู่มือ or faq.',
  },
  descriptionLabel: { th: 'คำอธิบาย (ไม่บังคับ)', en: 'Description (optional)' },
  spaceLabel: { th: 'กลุ่มเจ้าของคลัง', en: 'Owning group' },
  createButton: { th: 'สร้างคลัง', en: 'Create' },
  noSpaces: {
    th: 'ยังไม่รู้จักกลุ่มใดเลย ให้กลุ่มคุยกับบอทก่อน หรือสร้างคลังในแชทด้วย /kb create',
    en: 'No group is known yet: let a group talk to the bot first, or create the knowledge base in the chat with /kb create.',
  },
} satisfies Record<string, Localized>;

/** What the create form shows again after a refused post. */
export interface CreateFormState {
  name: string;
  description: string;
  spaceKey: string;
  error: string;
}

/** The bases the session sees, with their counts, grouped by space (spaces in order, bases oldest first). */
async function basesBySpace(services: Pick<AdminServices, 'knowledge'>, admin: AdminRequest): Promise<Map<string, KnowledgeBaseSummary[]>> {
  const { scope } = admin.session;
  const lists =
    scope.kind === 'global'
      ? [await services.knowledge.listKnowledgeBases()]
      : await Promise.all(scope.spaceKeys.map((spaceKey) => services.knowledge.listKnowledgeBases({ spaceKey })));
  const summaries = await Promise.all(lists.flat().map((base) => services.knowledge.summarize(base.id)));
  const bySpace = new Map<string, KnowledgeBaseSummary[]>();
  for (const summary of summaries) {
    if (!summary) continue;
    bySpace.set(summary.spaceKey, [...(bySpace.get(summary.spaceKey) ?? []), summary]);
  }
  return new Map([...bySpace].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function baseTable(summaries: readonly KnowledgeBaseSummary[], language: Language): Html {
  const t = (text: Localized) => pick(text, language);
  return html`<table class="responsive kb-list">
    <thead>
      <tr>
        <th>${t(texts.name)}</th>
        <th class="number">${t(texts.documents)}</th>
        <th class="number">${t(texts.passages)}</th>
        <th class="number">${t(texts.size)}</th>
        <th class="number">${t(texts.bound)}</th>
      </tr>
    </thead>
    <tbody>
      ${summaries.map(
        (summary) =>
          html`<tr data-kb="${summary.id}">
            <td data-label="${t(texts.name)}">
              <a href="${basePath(summary.id)}">${summary.name}</a>
              ${summary.description ? html`<br /><span class="muted">${summary.description}</span>` : ''}
            </td>
            <td class="number" data-label="${t(texts.documents)}">${summary.documentCount}</td>
            <td class="number" data-label="${t(texts.passages)}">${summary.chunkCount}</td>
            <td class="number" data-label="${t(texts.size)}">${formatBytes(summary.totalBytes)}</td>
            <td class="number" data-label="${t(texts.bound)}">${summary.boundConversationCount}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function createForm(spaces: readonly string[], admin: AdminRequest, state?: CreateFormState): Html {
  const t = (text: Localized) => pick(text, admin.language);
  if (spaces.length === 0) return html`<p class="muted">${t(texts.noSpaces)}</p>`;
  return html`${state ? html`<p class="notice error" role="alert">${state.error}</p>` : ''}
    <form method="post" action="/admin/kb" id="kb-create-form">
      ${csrfField(admin.session.csrfToken)}
      <label for="kb-name">${t(texts.nameLabel)}</label>
      <input type="text" id="kb-name" name="name" required maxlength="40" autocomplete="off" value="${state?.name ?? ''}" />
      <p class="muted hint">${t(texts.nameHint)}</p>
      <label for="kb-description">${t(texts.descriptionLabel)}</label>
      <textarea id="kb-description" name="description" rows="2" maxlength="${maxDescriptionLength}">${state?.description ?? ''}</textarea>
      <label for="kb-space">${t(texts.spaceLabel)}</label>
      <select id="kb-space" name="space">
        ${spaces.map((spaceKey) => html`<option value="${spaceKey}" ${spaceKey === state?.spaceKey ? html` selected` : ''}>${spaceKey}</option>`)}
      </select>
      <p><button type="submit" class="primary">${t(texts.createButton)}</button></p>
    </form>`;
}

/** Sends the list page; `state` and `status` when a create was refused (the form keeps what was typed). */
export async function sendListPage(
  services: Pick<AdminServices, 'knowledge' | 'storage' | 'timeZone' | 'now' | 'log'>,
  admin: AdminRequest,
  state?: CreateFormState,
  status = 200,
): Promise<void> {
  const t = (text: Localized) => pick(text, admin.language);
  const [bySpace, spaces] = await Promise.all([basesBySpace(services, admin), knownSpaces(services, admin.session)]);
  const body = html`${bySpace.size === 0 ? html`<p class="muted">${t(texts.none)}</p>` : ''}
    ${[...bySpace].map(
      ([spaceKey, summaries]) =>
        html`<section class="kb-space" data-space="${spaceKey}">
          <h2><a href="${groupPath(spaceKey)}">${say(texts.space, admin.language, { space: spaceKey })}</a></h2>
          ${baseTable(summaries, admin.language)}
        </section>`,
    )}
    <section id="kb-create">
      <h2>${t(texts.create)}</h2>
      ${createForm(spaces, admin, state)}
    </section>`;
  admin.page({ title: t(texts.title), current: 'knowledge', body, status });
}
