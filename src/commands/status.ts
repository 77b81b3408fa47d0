import { commandEntry } from '../shared/command-table.js';
import { say, type Localized } from '../shared/i18n.js';
import type { OcrEngineName, OcrStatus, OcrUnavailableReason } from '../shared/image-reading.js';
import { tesseractLanguagePackage } from '../ocr/tesseract-status.js';
import type { InboundMessage, Language, ModelCapabilities, RagMode } from '../shared/types.js';
import type { CommandHandler } from './command.js';
import { adminLines, type AdminStatus } from './status-admin.js';
import type { SpaceSettings } from '../settings/space-settings.js';
import { settingsLines, type SettingsDefaults } from './settings/settings-view.js';

export interface StatusReport {
  /** MODEL_BASE_URL, an internal address: in the report only for global admins. */
  baseUrl?: string;
  model: string;
  server: string;
  healthy: boolean;
  capabilities: ModelCapabilities;
  /** How each capability was decided (config, declared, probe…). */
  capabilitySources: { tools: string; vision: string };
  rag: RagMode;
  tools: readonly string[];
  /** What the platform lets the bot read in groups; undefined where it did not say (the console). */
  readsAllGroupMessages: boolean | undefined;
  /** What the message's platform adds (LINE: the push quota). */
  platformLines: string[];
  /** Whether text in images can be read (tesseract and its language data installed). */
  ocr: OcrStatus;
  /** Whether a web search provider is configured (web_search, deep_research, /research). */
  webSearch: boolean;
  /** The space's /settings; absent when the store could not be read. */
  spaceSettings?: SpaceSettings;
  /** For global admins only: how long the bot has run, its version, the inbound backlog, each platform's state. */
  admin?: AdminStatus;
}

const template: Localized = {
  th: [
    'สถานะของบอท',
    '- เซิร์ฟเวอร์โมเดล: {address} ({server}) — {health}',
    '- โมเดล: {model}',
    '- เรียกเครื่องมือได้: {tools} ({toolsSource})',
    '- โมเดลมองเห็นรูปภาพ: {vision} ({visionSource})',
    '- อ่านตัวหนังสือในรูป (OCR): {ocr}',
    '- ค้นเว็บ: {webSearch}',
    '- โหมดค้นคืนความรู้ (RAG) ในห้องนี้: {rag}',
    '- เครื่องมือ: {toolNames}',
  ].join('\n'),
  en: [
    'Bot status',
    '- Model server: {address} ({server}) — {health}',
    '- Model: {model}',
    '- Tool calling: {tools} ({toolsSource})',
    '- Vision: {vision} ({visionSource})',
    '- Text in images (OCR): {ocr}',
    '- Web search: {webSearch}',
    '- Knowledge retrieval (RAG) here: {rag}',
    '- Tools: {toolNames}',
  ].join('\n'),
};
const groupReading: Record<'all' | 'addressed', Localized> = {
  all: {
    th: '- ในกลุ่ม บอทเห็นทุกข้อความ (ใช้บริบทของกลุ่มและรูปที่ส่งก่อนเรียกบอทได้)',
    en: '- In groups the bot sees every message (group context and earlier images work)',
  },
  addressed: {
    th: '- ในกลุ่ม บอทเห็นเฉพาะข้อความที่เรียกบอท: สรุปบทสนทนาในกลุ่มและรูปที่ส่งก่อนเรียกบอทจะใช้ไม่ได้ (Telegram: ปิด privacy mode ที่ @BotFather แล้วเชิญบอทเข้ากลุ่มใหม่ — ดู docs/setup-telegram.md)',
    en: '- In groups the bot sees only messages addressed to it: group summaries and earlier images do not work (Telegram: turn privacy mode off in @BotFather, then re-add the bot — see docs/setup-telegram.md)',
  },
};
const ocrReady: Record<OcrEngineName, Localized> = {
  tesseract: { th: 'ได้ (tesseract {version}, ภาษา {languages})', en: 'yes (tesseract {version}, languages {languages})' },
  'tesseract.js': {
    th: 'ได้ (tesseract.js {version} ที่มากับบอท เพราะไม่พบโปรแกรม tesseract หรือข้อมูลภาษาของมัน, ภาษา {languages})',
    en: 'yes (tesseract.js {version}, built in: the tesseract program or its language data is not installed; languages {languages})',
  },
};
const ocrMissing: Record<OcrUnavailableReason, Localized> = {
  'not-installed': {
    th: 'ไม่ได้ — ไม่พบโปรแกรม tesseract (ติดตั้ง: sudo apt-get install tesseract-ocr tesseract-ocr-tha หรือตั้ง TESSERACT_PATH)',
    en: 'no — tesseract is not installed (install: sudo apt-get install tesseract-ocr tesseract-ocr-tha, or set TESSERACT_PATH)',
  },
  'not-answering': {
    th: 'ไม่ได้ — tesseract ไม่ตอบสนอง ({detail})',
    en: 'no — tesseract does not answer ({detail})',
  },
  'no-language': { th: 'ไม่ได้ — OCR_LANGS ว่างอยู่ (ตั้งเป็น tha+eng)', en: 'no — OCR_LANGS is empty (set it to tha+eng)' },
  'missing-languages': {
    th: 'ไม่ได้ — ยังไม่ได้ติดตั้งข้อมูลภาษา {languages} (ติดตั้ง: sudo apt-get install {packages})',
    en: 'no — language data missing: {languages} (install: sudo apt-get install {packages})',
  },
};

function ocrLine(status: OcrStatus, language: Language): string {
  if (status.available) return say(ocrReady[status.engine], language, { version: status.version, languages: status.languages });
  const missing = status.missingLanguages ?? [];
  return say(ocrMissing[status.reason], language, {
    detail: status.detail,
    languages: missing.join(', '),
    packages: missing.map(tesseractLanguagePackage).join(' '),
  });
}
const searchOff: Localized = {
  th: 'ไม่ได้ — ยังไม่ได้ตั้งค่า (SEARXNG_URL, BRAVE_API_KEY หรือ TAVILY_API_KEY)',
  en: 'no — not configured (SEARXNG_URL, BRAVE_API_KEY or TAVILY_API_KEY)',
};
// MODEL_BASE_URL is an internal address: members see this instead.
const addressForAdmins: Localized = { th: 'ที่อยู่แสดงเฉพาะผู้ดูแล', en: 'address shown to admins only' };
const yes: Localized = { th: 'ได้', en: 'yes' };
const no: Localized = { th: 'ไม่ได้', en: 'no' };
const healthy: Localized = { th: 'ทำงานปกติ', en: 'healthy' };
const unhealthy: Localized = { th: 'ติดต่อไม่ได้', en: 'unreachable' };
const ragNames: Record<RagMode, Localized> = {
  agentic: { th: 'โมเดลค้นเองเมื่อต้องใช้ (เรียก query_knowledge)', en: 'agentic (the model calls query_knowledge)' },
  naive: { th: 'ค้นให้อัตโนมัติทุกคำถาม', en: 'naive (retrieval on every question)' },
  none: { th: 'ไม่มีฐานความรู้ผูกกับห้องนี้', en: 'no knowledge base bound here' },
};
// The tags in brackets: how a capability was decided (CapabilitySourceKind) and what server answered. English keeps
// the words the logs use; server product names stay as they are in both languages.
const sourceNames: Record<string, Localized> = {
  config: { th: 'ตั้งค่าไว้', en: 'config' },
  declared: { th: 'เซิร์ฟเวอร์แจ้งไว้', en: 'declared' },
  probe: { th: 'ตรวจพบ', en: 'probe' },
  refusal: { th: 'เซิร์ฟเวอร์ปฏิเสธ', en: 'refusal' },
  default: { th: 'ค่าเริ่มต้น', en: 'default' },
};
const serverNames: Record<string, Localized> = {
  unreachable: { th: 'ติดต่อไม่ได้', en: 'unreachable' },
  generic: { th: 'ไม่ทราบชนิด', en: 'generic' },
};

/** A tag in the reader's language; an unknown one (a newer kind) as it is. */
function tag(names: Record<string, Localized>, value: string, language: Language): string {
  const known = Object.hasOwn(names, value) ? names[value] : undefined;
  return known ? say(known, language) : value;
}

const settingsHeading: Localized = { th: 'การตั้งค่าของที่นี่ (/settings)', en: 'Settings here (/settings)' };

/** `/status`: model server, model, detected capabilities, RAG mode, health, and the space's settings. */
export function createStatusCommand(report: (message: InboundMessage, forAdmin: boolean) => Promise<StatusReport>, defaults: SettingsDefaults): CommandHandler {
  return {
    name: 'status',
    summary: commandEntry('status').summary,
    run: async (_command, context) => {
      const status = await report(context.message, context.isGlobalAdmin);
      const language = context.language;
      const reading = status.readsAllGroupMessages === undefined ? '' : `\n${say(groupReading[status.readsAllGroupMessages ? 'all' : 'addressed'], language)}`;
      // Everyone sees how the space is set; the instructions' text only its admins (as /settings shows it).
      const showInstructions = context.isGlobalAdmin || context.message.sender.isPlatformAdmin || context.message.chatKind === 'direct';
      const settings = status.spaceSettings
        ? `\n\n${[say(settingsHeading, language), ...settingsLines(status.spaceSettings, defaults, context.message, { language, showInstructions })].join('\n')}`
        : '';
      return {
        text:
          say(template, language, {
            address: context.isGlobalAdmin && status.baseUrl ? status.baseUrl : say(addressForAdmins, language),
            server: tag(serverNames, status.server, language),
            health: say(status.healthy ? healthy : unhealthy, language),
            model: status.model || '-',
            tools: say(status.capabilities.tools ? yes : no, language),
            toolsSource: tag(sourceNames, status.capabilitySources.tools, language),
            vision: say(status.capabilities.vision ? yes : no, language),
            visionSource: tag(sourceNames, status.capabilitySources.vision, language),
            rag: say(ragNames[status.rag], language),
            toolNames: status.tools.join(', ') || '-',
            ocr: ocrLine(status.ocr, language),
            webSearch: say(status.webSearch ? yes : searchOff, language),
          }) +
          reading +
          (status.admin ? `\n${adminLines(status.admin, language)}` : '') +
          status.platformLines.map((line) => `\n- ${line}`).join('') +
          settings,
      };
    },
  };
}
