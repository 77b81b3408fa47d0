import { say, type Localized } from '../../shared/i18n.js';
import { maxDescriptionLength } from '../../knowledge/index.js';
import { senderKey } from './access.js';
import { textAfterWords } from './arguments.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import { thisSpaceAtStart } from './space-name.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  usage: { th: 'วิธีใช้: /kb create <ชื่อ> [คำอธิบาย]', en: 'Usage: /kb create <name> [description]' },
  invalidName: {
    th: 'ชื่อ “{name}” ใช้ไม่ได้: ใช้ตัวอักษร ตัวเลข _ . - ได้ไม่เกิน 40 ตัว และห้ามมีเว้นวรรค',
    en: 'The name “{name}” is not valid: up to 40 letters, digits, _ . - and no spaces.',
  },
  duplicate: { th: '{space}มีคลังความรู้ชื่อ “{name}” อยู่แล้ว', en: '{space} already has a knowledge base named “{name}”.' },
  created: {
    th: 'สร้างคลังความรู้ **{name}** (`{id}`) แล้ว\nเพิ่มเอกสาร: /kb add {name} พร้อมแนบไฟล์ · ใช้ในห้องนี้: /kb bind {name}',
    en: 'Created the knowledge base **{name}** (`{id}`).\nAdd documents: /kb add {name} with a file attached · use it in this chat: /kb bind {name}',
  },
} satisfies Record<string, Localized>;

/** `/kb create <name> [description]`: a new KB owned by this space. */
export const createKnowledgeBase: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const name = input.words[0];
  if (!name) return say(strings.usage, language);
  const description = textAfterWords(input.rest, 1).replace(/\s+/g, ' ').slice(0, maxDescriptionLength);
  const created = await store.createKnowledgeBase({ name, description, spaceKey: context.message.spaceKey, createdBy: senderKey(context), now: context.now() });
  if (!created.ok) {
    return say(created.reason === 'invalid-name' ? strings.invalidName : strings.duplicate, language, {
      name: escapeMarkdown(name),
      space: thisSpaceAtStart(context),
    });
  }
  context.log.info({ knowledgeBaseId: created.knowledgeBase.id, spaceKey: created.knowledgeBase.spaceKey }, 'knowledge: knowledge base created');
  return say(strings.created, language, { name: escapeMarkdown(created.knowledgeBase.name), id: created.knowledgeBase.id });
};
