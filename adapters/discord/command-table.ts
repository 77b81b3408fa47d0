import type { Localized } from '../../src/shared/i18n.js';

// The slash commands, once: the builders (slash-commands.ts) register them from this table, and an interaction is
// turned back into the same text a typed command has (`/kb add คู่มือ …`), in the table's option order, so the
// core parses one grammar whichever way it came (docs/architecture.md, "Data flow of one message").

export interface OptionSpec {
  name: string;
  /** `knowledge-base`: a string whose choices autocomplete from the space's knowledge bases. */
  kind: 'string' | 'knowledge-base' | 'attachment';
  required: boolean;
  description: Localized;
}

export interface SubcommandSpec {
  name: string;
  description: Localized;
  options: OptionSpec[];
}

export interface CommandSpec {
  name: string;
  description: Localized;
  options: OptionSpec[];
  subcommands: SubcommandSpec[];
  /** Shown to members with Manage Server by default; the core checks the caller on every run anyway. */
  administrators: boolean;
  /** Only when web search is configured. */
  needsSearch: boolean;
}

const kb = (required = true): OptionSpec => ({ name: 'kb', kind: 'knowledge-base', required, description: { th: 'ชื่อคลังความรู้', en: 'Knowledge base name' } });
const text = (name: string, required: boolean, description: Localized): OptionSpec => ({ name, kind: 'string', required, description });
/** Discord allows 25 options; five files per /kb add is what a user picks at once. */
const files: OptionSpec[] = ['file', 'file2', 'file3', 'file4', 'file5'].map((name, index) => ({
  name,
  kind: 'attachment',
  required: false,
  description:
    index === 0
      ? {
          th: 'ไฟล์เอกสาร (.txt .md .html .pdf .docx .csv หรือรูป .png .jpg .webp)',
          en: 'Document file (.txt .md .html .pdf .docx .csv, or a .png .jpg .webp image)',
        }
      : { th: 'ไฟล์เพิ่มเติม', en: 'Another file' },
}));

const plain = (name: string, description: Localized, options: OptionSpec[] = [], needsSearch = false): CommandSpec => ({
  name,
  description,
  options,
  subcommands: [],
  administrators: false,
  needsSearch,
});

const knowledgeSubcommands: SubcommandSpec[] = [
  { name: 'list', description: { th: 'คลังความรู้ของเซิร์ฟเวอร์นี้', en: "This server's knowledge bases" }, options: [] },
  {
    name: 'create',
    description: { th: 'สร้างคลังความรู้ใหม่', en: 'Create a knowledge base' },
    options: [text('name', true, { th: 'ชื่อ (ไม่มีช่องว่าง)', en: 'Name (no spaces)' }), text('description', false, { th: 'คำอธิบาย', en: 'Description' })],
  },
  {
    name: 'add',
    description: { th: 'เพิ่มเอกสารจากไฟล์แนบหรือข้อความ', en: 'Add documents from attached files or text' },
    options: [kb(), ...files, text('text', false, { th: 'ข้อความที่จะเพิ่มเป็นเอกสาร', en: 'Text to add as a document' })],
  },
  { name: 'docs', description: { th: 'รายการเอกสารในคลัง', en: 'List the documents' }, options: [kb()] },
  {
    name: 'remove-doc',
    description: { th: 'ลบเอกสารออกจากคลัง', en: 'Remove a document' },
    options: [kb(), text('document', true, { th: 'เลขเอกสาร (#3) หรือชื่อเอกสาร', en: 'Document number (#3) or title' })],
  },
  { name: 'search', description: { th: 'ทดลองค้นหาในคลัง', en: 'Try a search' }, options: [kb(), text('query', true, { th: 'คำค้น', en: 'Query' })] },
  { name: 'bind', description: { th: 'ใช้คลังนี้ในห้องนี้', en: 'Use it in this channel' }, options: [kb()] },
  { name: 'unbind', description: { th: 'เลิกใช้คลังนี้ในห้องนี้', en: 'Stop using it in this channel' }, options: [kb()] },
  { name: 'info', description: { th: 'รายละเอียดของคลัง', en: 'Details' }, options: [kb()] },
  {
    name: 'delete',
    description: { th: 'ลบทั้งคลัง (ต้องยืนยันด้วยรหัส)', en: 'Delete it all (asks for a confirmation code)' },
    options: [kb(), text('code', false, { th: 'รหัสยืนยันที่บอทให้มา', en: 'The confirmation code the bot gave' })],
  },
];

export const commandTable: readonly CommandSpec[] = [
  plain('help', { th: 'แสดงคำสั่งทั้งหมด', en: 'Show the commands' }),
  plain('status', { th: 'สถานะเซิร์ฟเวอร์โมเดลและความสามารถ', en: 'Model server status and capabilities' }),
  plain('reset', { th: 'ล้างประวัติการสนทนาในห้องนี้', en: "Clear this channel's conversation history" }),
  plain(
    'research',
    { th: 'ค้นคว้าเชิงลึกจากเว็บ พร้อมแหล่งที่มา', en: 'Research the web in depth, with sources' },
    [text('question', true, { th: 'คำถาม', en: 'Question' })],
    true,
  ),
  {
    name: 'kb',
    description: { th: 'จัดการคลังความรู้ของเซิร์ฟเวอร์ (ผู้ดูแล)', en: "Manage the server's knowledge bases (admins)" },
    options: [],
    subcommands: knowledgeSubcommands,
    administrators: true,
    needsSearch: false,
  },
];

export function commandSpec(name: string): CommandSpec | undefined {
  return commandTable.find((command) => command.name === name);
}
