import { say, type Localized } from '../shared/i18n.js';
import type { ModelCapabilities, RagMode } from '../shared/types.js';
import type { CommandHandler } from './command.js';

export interface StatusReport {
  baseUrl: string;
  model: string;
  server: string;
  healthy: boolean;
  capabilities: ModelCapabilities;
  /** How each capability was decided (config, declared, probe…). */
  capabilitySources: { tools: string; vision: string };
  rag: RagMode;
  tools: readonly string[];
}

const template: Localized = {
  th: [
    'สถานะของบอท',
    '- เซิร์ฟเวอร์โมเดล: {baseUrl} ({server}) — {health}',
    '- โมเดล: {model}',
    '- เรียกเครื่องมือได้: {tools} ({toolsSource})',
    '- อ่านรูปภาพได้: {vision} ({visionSource})',
    '- โหมดค้นคืนความรู้ (RAG) ในห้องนี้: {rag}',
    '- เครื่องมือ: {toolNames}',
  ].join('\n'),
  en: [
    'Bot status',
    '- Model server: {baseUrl} ({server}) — {health}',
    '- Model: {model}',
    '- Tool calling: {tools} ({toolsSource})',
    '- Vision: {vision} ({visionSource})',
    '- Knowledge retrieval (RAG) here: {rag}',
    '- Tools: {toolNames}',
  ].join('\n'),
};
const yes: Localized = { th: 'ได้', en: 'yes' };
const no: Localized = { th: 'ไม่ได้', en: 'no' };
const healthy: Localized = { th: 'ทำงานปกติ', en: 'healthy' };
const unhealthy: Localized = { th: 'ติดต่อไม่ได้', en: 'unreachable' };
const ragNames: Record<RagMode, Localized> = {
  agentic: { th: 'agentic (โมเดลเรียก query_knowledge เอง)', en: 'agentic (the model calls query_knowledge)' },
  naive: { th: 'naive (ค้นคืนอัตโนมัติทุกคำถาม)', en: 'naive (retrieval on every question)' },
  none: { th: 'ไม่มีฐานความรู้ผูกกับห้องนี้', en: 'no knowledge base bound here' },
};

/** `/status`: model server, model, detected capabilities, RAG mode, health. */
export function createStatusCommand(report: (conversationKey: string) => Promise<StatusReport>): CommandHandler {
  return {
    name: 'status',
    summary: { th: 'สถานะเซิร์ฟเวอร์โมเดลและความสามารถ', en: 'model server status and capabilities' },
    run: async (_command, context) => {
      const status = await report(context.message.conversationKey);
      const language = context.language;
      return {
        text: say(template, language, {
          baseUrl: status.baseUrl,
          server: status.server,
          health: say(status.healthy ? healthy : unhealthy, language),
          model: status.model || '-',
          tools: say(status.capabilities.tools ? yes : no, language),
          toolsSource: status.capabilitySources.tools,
          vision: say(status.capabilities.vision ? yes : no, language),
          visionSource: status.capabilitySources.vision,
          rag: say(ragNames[status.rag], language),
          toolNames: status.tools.join(', ') || '-',
        }),
      };
    },
  };
}
