import { commandEntry } from '../shared/command-table.js';
import { logFailure } from '../shared/log.js';
import type { Localized } from '../shared/i18n.js';
import { pick, say } from '../shared/i18n.js';
import type { Citation, Language } from '../shared/types.js';
import type { CommandContext, CommandHandler } from './command.js';

// `/research <question>`: deep research for users; the answer ends with its numbered sources.

export const maxResearchQuestionLength = 500;

const usage: Localized = {
  th: 'วิธีใช้: /research <คำถาม>\nตัวอย่าง: /research เปรียบเทียบค่าไฟบ้านของ กฟน. และ กฟภ. ปี 2568',
  en: 'Usage: /research <question>\nExample: /research compare the home electricity rates of MEA and PEA in 2025',
};
const tooLong: Localized = {
  th: 'คำถามยาวเกินไป (ไม่เกิน {max} ตัวอักษร)',
  en: 'The question is too long (at most {max} characters).',
};
// The question would be sent to the search provider: one that carries a credential is not researched at all.
const credentialInQuestion: Localized = {
  th: '🔒 ไม่ได้ค้นคว้า เพราะคำถามมีข้อมูลที่ดูเหมือนรหัสลับหรือกุญแจเข้าถึงระบบ (credential) ซึ่งจะต้องส่งไปยังบริการค้นเว็บภายนอก กรุณาถามใหม่โดยไม่ใส่รหัสผ่าน โทเคน หรือคีย์',
  en: '🔒 Not researched: the question contains what looks like a secret or access credential, which would have been sent to an outside web search service. Ask again without the password, token or key.',
};
const failed: Localized = {
  th: 'ค้นคว้าไม่สำเร็จเพราะเกิดข้อผิดพลาดภายใน ลองใหม่อีกครั้งภายหลัง',
  en: 'The research failed because of an internal error. Please try again later.',
};

export type ResearchFunction = (question: string, context: CommandContext) => Promise<{ text: string; citations: Citation[] }>;
/** The numbered source list every answer uses (the agent's sources guard owns the format; the root hands it in). */
export type SourceListRenderer = (citations: readonly Citation[], language: Language) => string;

/** The answer followed by the numbered source list every answer uses; entry n matches the `[n]` markers. */
export function formatResearchReply(
  text: string,
  citations: readonly Citation[],
  context: Pick<CommandContext, 'language'>,
  renderSources: SourceListRenderer,
): string {
  if (citations.length === 0) return text;
  return `${text}\n\n${renderSources(citations, context.language)}`;
}

/** The credential kinds in text about to leave the machine (the DLP scanner with Saeng's secrets); empty when none. */
export type CredentialFinder = (text: string) => string[];

export function createResearchCommand(run: ResearchFunction, renderSources: SourceListRenderer, findCredentials: CredentialFinder): CommandHandler {
  return {
    name: 'research',
    summary: commandEntry('research').summary,
    usesModel: true,
    async run(command, context) {
      const question = command.rest.trim();
      if (question === '') return { text: pick(usage, context.language) };
      if (question.length > maxResearchQuestionLength) {
        return { text: say(tooLong, context.language, { max: maxResearchQuestionLength }) };
      }
      const kinds = findCredentials(question);
      if (kinds.length > 0) {
        context.log.warn({ kinds }, '/research: question not searched, it carries a credential (DLP)');
        return { text: pick(credentialInQuestion, context.language) };
      }
      try {
        const result = await run(question, context);
        return { text: formatResearchReply(result.text, result.citations, context, renderSources) };
      } catch (error) {
        logFailure(context.log, 'error', {}, '/research failed', error);
        return { text: pick(failed, context.language) };
      }
    },
  };
}

const unavailableSummary: Localized = {
  th: 'ค้นคว้าเชิงลึกจากเว็บ (ปิดอยู่: ยังไม่ได้ตั้งค่าการค้นเว็บ)',
  en: 'in-depth web research (off: no web search is configured)',
};
const unavailable: Localized = {
  th: 'ยังใช้ /research ไม่ได้ เพราะยังไม่ได้ตั้งค่าการค้นเว็บ ให้ผู้ดูแลตั้ง SEARXNG_URL (SearXNG ของตัวเอง) หรือ BRAVE_API_KEY หรือ TAVILY_API_KEY ในไฟล์ .env แล้วเริ่มบอตใหม่ (ดู docs/using-saeng.md หัวข้อ "Web search and research")',
  en: '/research is not available because no web search is configured. An admin can set SEARXNG_URL (your own SearXNG), BRAVE_API_KEY or TAVILY_API_KEY in .env and restart the bot (see docs/using-saeng.md, "Web search and research").',
};

/** `/research` on a bot without a search provider: says what is missing and how to set it, instead of "unknown command". */
export function createResearchUnavailableCommand(): CommandHandler {
  return {
    name: 'research',
    summary: unavailableSummary,
    run: (_command, context) => Promise.resolve({ text: pick(unavailable, context.language) }),
  };
}
