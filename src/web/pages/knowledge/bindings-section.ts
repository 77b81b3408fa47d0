import type { KnowledgeBase, KnowledgeBaseSummary } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { keysNameTheirSpace } from './conversation-keys.js';
import { basePath } from './knowledge-format.js';
import { confirmedForm, csrfField } from '../../form-fields.js';

// The conversations that read a knowledge base (the store's own list, the first 200), and the form that binds or
// unbinds one by its key.

const texts = {
  heading: { th: 'ห้องสนทนาที่ใช้คลังนี้', en: 'Chats that use this knowledge base' },
  none: { th: 'ยังไม่มีห้องใดใช้คลังนี้', en: 'No chat uses it yet.' },
  unbind: { th: 'เลิกใช้', en: 'Unbind' },
  confirmUnbind: { th: 'ให้ห้อง {conversation} เลิกใช้คลังนี้?', en: 'Stop using this knowledge base in {conversation}?' },
  more: {
    th: 'และอีก {count} ห้อง (แสดงเฉพาะ {shown} ห้องแรก) เลิกใช้ได้ด้วย /kb unbind ในห้องนั้น หรือพิมพ์รหัสห้องด้านล่าง',
    en: 'And {count} more (the first {shown} are shown): unbind with /kb unbind there, or type its key below.',
  },
  conversationLabel: { th: 'รหัสห้องสนทนา', en: 'Conversation key' },
  hintNamed: {
    th: 'ห้องหลักของกลุ่มคือ {space} ส่วนหัวข้อ (topic) ของ Telegram คือ {space}:<เลขหัวข้อ>',
    en: 'The group’s main chat is {space}; a Telegram topic is {space}:<topic number>.',
  },
  hintOpaque: {
    th: 'รหัสห้องของ Discord คือ discord:<เลขช่อง> (ผู้ดูแลกลุ่มผูกได้ด้วย /kb bind ในช่องนั้น)',
    en: 'A Discord channel’s key is discord:<channel id> (group admins bind with /kb bind in the channel).',
  },
  bind: { th: 'ผูก (ให้ห้องนี้ใช้คลัง)', en: 'Bind (the chat uses it)' },
  unbindTyped: { th: 'เลิกผูก', en: 'Unbind' },
} satisfies Record<string, Localized>;

/** Conversations listed at most; the rest are counted. */
const maxListed = 200;

/** The conversations bound to the base now, sorted, the first `maxListed`. */
export async function boundConversations(services: Pick<AdminServices, 'knowledge'>, knowledgeBase: KnowledgeBase): Promise<string[]> {
  return services.knowledge.boundConversationKeys(knowledgeBase.id, maxListed);
}

export function bindingsSection(summary: KnowledgeBaseSummary, bound: readonly string[], admin: AdminRequest): Html {
  const { language } = admin;
  const t = (text: Localized) => pick(text, language);
  const path = basePath(summary.id);
  const unlisted = summary.boundConversationCount - bound.length;
  const hint = keysNameTheirSpace(summary.spaceKey) ? say(texts.hintNamed, language, { space: summary.spaceKey }) : t(texts.hintOpaque);
  return html`<section id="kb-bindings">
    <h2>${t(texts.heading)}</h2>
    ${bound.length === 0 && unlisted <= 0 ? html`<p class="muted">${t(texts.none)}</p>` : ''}
    ${
      bound.length > 0
        ? html`<ul id="binding-list" class="bindings">
            ${bound.map(
              (conversation) =>
                html`<li data-conversation="${conversation}">
                  <code>${conversation}</code>
                  ${confirmedForm({
                    action: `${path}/unbind`,
                    className: 'inline',
                    confirm: say(texts.confirmUnbind, language, { conversation }),
                    label: t(texts.unbind),
                    csrfToken: admin.session.csrfToken,
                    fields: { conversation },
                  })}
                </li>`,
            )}
          </ul>`
        : ''
    }
    ${unlisted > 0 ? html`<p class="muted">${say(texts.more, language, { count: unlisted, shown: bound.length })}</p>` : ''}
    <form method="post" action="${path}/bind" id="bind-form">
      ${csrfField(admin.session.csrfToken)}
      <label for="bind-conversation">${t(texts.conversationLabel)}</label>
      <input type="text" id="bind-conversation" name="conversation" required maxlength="200" autocomplete="off" value="${summary.spaceKey}" />
      <p class="muted hint">${hint}</p>
      <p class="actions">
        <button type="submit" class="primary">${t(texts.bind)}</button>
        <button type="submit" formaction="${path}/unbind">${t(texts.unbindTyped)}</button>
      </p>
    </form>
  </section>`;
}
