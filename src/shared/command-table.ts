import type { Localized } from './i18n.js';

// The commands, declared once: /help reads its lines here (src/commands/help.ts), the Telegram "/" menu its
// entries (src/platforms.ts), and Discord's builders their slash commands (adapters/discord/slash-commands.ts). An
// interaction is turned back into the same text a typed command has (`/kb add คู่มือ …`), in the table's option
// order, so the core parses one grammar whichever way it came (docs/architecture.md, "Data flow of one message").

export interface OptionSpec {
  name: string;
  /** `knowledge-base`: a string whose choices autocomplete from the space's knowledge bases. */
  kind: 'string' | 'knowledge-base' | 'attachment';
  required: boolean;
  description: Localized;
  /** A string option's fixed values (a Discord slash command offers them as choices; typed, they are words). */
  choices?: { value: string; name: Localized }[];
}

export interface SubcommandSpec {
  name: string;
  description: Localized;
  options: OptionSpec[];
}

export interface CommandSpec {
  name: string;
  /** Its line in /help. */
  summary: Localized;
  /** Its short description in a platform's command menu (Telegram's "/" menu, a Discord slash command). */
  description: Localized;
  /** Discord's wording where it names Discord's own places (a server, a channel). */
  discordDescription?: Localized;
  options: OptionSpec[];
  subcommands: SubcommandSpec[];
  /**
   * For admins: in the menus of chat administrators only (Telegram), shown to members with Manage Server by default
   * (Discord); the command checks the caller on every run anyway.
   */
  administrators: boolean;
  /** Answered to the caller alone where the platform can (a Discord slash command's ephemeral reply). */
  answersPrivately: boolean;
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

const plain = (name: string, texts: Pick<CommandSpec, 'summary' | 'description' | 'discordDescription'>, more: Partial<CommandSpec> = {}): CommandSpec => ({
  name,
  ...texts,
  options: [],
  subcommands: [],
  administrators: false,
  answersPrivately: false,
  needsSearch: false,
  ...more,
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

const onOffChoices = [
  { value: 'on', name: { th: 'เปิด', en: 'On' } },
  { value: 'off', name: { th: 'ปิด', en: 'Off' } },
  { value: 'default', name: { th: 'ค่าเริ่มต้นของบอท', en: "The bot's default" } },
];
const choice = (name: string, description: Localized, choices: OptionSpec['choices']): OptionSpec => ({
  name,
  kind: 'string',
  required: true,
  description,
  choices,
});
const count = (description: Localized): OptionSpec => text('count', true, description);

/** Typed as `/settings <topic> <value>`; on Discord one subcommand per topic, values offered as choices. */
const settingsSubcommands: SubcommandSpec[] = [
  { name: 'show', description: { th: 'ดูการตั้งค่าของที่นี่', en: 'Show the settings here' }, options: [] },
  {
    name: 'language',
    description: { th: 'ภาษาที่บอทใช้', en: 'The language the bot uses' },
    options: [
      choice('value', { th: 'ภาษา', en: 'Language' }, [
        { value: 'th', name: { th: 'ไทย', en: 'Thai' } },
        { value: 'en', name: { th: 'อังกฤษ', en: 'English' } },
        { value: 'follow', name: { th: 'ตามภาษาของผู้ถาม', en: "The asker's language" } },
        { value: 'default', name: { th: 'ค่าเริ่มต้นของบอท', en: "The bot's default" } },
      ]),
    ],
  },
  {
    name: 'trigger',
    description: { th: 'การเรียกบอทในกลุ่ม', en: 'How the bot is called in the group' },
    options: [
      choice('mode', { th: 'วิธีเรียก', en: 'How' }, [
        { value: 'mention', name: { th: 'แท็กหรือตอบกลับบอท', en: 'A mention or a reply' } },
        { value: 'name', name: { th: 'แท็ก ตอบกลับ หรือเรียกชื่อ', en: 'A mention, a reply, or its name' } },
        { value: 'every-message', name: { th: 'ทุกข้อความในห้องนี้', en: 'Every message in this channel' } },
        { value: 'default', name: { th: 'ค่าเริ่มต้นของบอท', en: "The bot's default" } },
      ]),
      text('names', false, { th: 'ชื่อเรียก คั่นด้วยช่องว่าง (สำหรับ name)', en: 'Names, separated by spaces (for name)' }),
    ],
  },
  {
    name: 'context',
    description: { th: 'จำนวนข้อความล่าสุดในกลุ่มที่ส่งไปกับคำถาม', en: 'Recent group messages sent with a question' },
    options: [count({ th: 'จำนวน 0–50 หรือ default', en: 'A count 0–50, or default' })],
  },
  {
    name: 'quota',
    description: { th: 'ข้อความต่อนาทีต่อผู้ใช้', en: 'Messages a minute per user' },
    options: [count({ th: 'จำนวน หรือ default', en: 'A count, or default' })],
  },
  {
    name: 'streaming',
    description: { th: 'แสดงคำตอบระหว่างที่บอทเขียน', en: 'Show answers while they are written' },
    options: [choice('value', { th: 'เปิดหรือปิด', en: 'On or off' }, onOffChoices)],
  },
  {
    name: 'quotes',
    description: { th: 'อ่านข้อความที่ผู้ถามตอบกลับ', en: 'Read the message a question replies to' },
    options: [choice('value', { th: 'เปิดหรือปิด', en: 'On or off' }, onOffChoices)],
  },
  {
    name: 'instructions',
    description: { th: 'คำแนะนำเพิ่มเติมสำหรับบอท', en: 'Extra instructions for the bot' },
    options: [text('text', true, { th: 'ไม่เกิน 500 ตัวอักษร (clear = ลบ)', en: 'At most 500 characters (clear removes them)' })],
  },
  { name: 'reset', description: { th: 'กลับเป็นค่าเริ่มต้นทั้งหมด', en: 'Back to the defaults' }, options: [] },
];

const remindSubcommands: SubcommandSpec[] = [
  {
    name: 'add',
    description: { th: 'ตั้งเตือน เช่น “พรุ่งนี้ 9 โมง ประชุมทีม”', en: 'Set a reminder, e.g. “tomorrow at 9am team meeting”' },
    options: [text('text', true, { th: 'เวลาและเรื่องที่จะเตือน', en: 'When, and what to remind of' })],
  },
  { name: 'list', description: { th: 'การเตือนในห้องนี้', en: 'The reminders in this channel' }, options: [] },
  {
    name: 'cancel',
    description: { th: 'ยกเลิกการเตือน', en: 'Cancel a reminder' },
    options: [text('number', true, { th: 'เลขของการเตือน (ดูจาก /reminders)', en: 'Its number (see /reminders)' })],
  },
];

export const commandTable: readonly CommandSpec[] = [
  plain('help', { summary: { th: 'แสดงคำสั่งทั้งหมด', en: 'show the commands' }, description: { th: 'แสดงคำสั่งทั้งหมด', en: 'Show the commands' } }),
  plain('status', {
    summary: { th: 'สถานะเซิร์ฟเวอร์โมเดลและความสามารถ', en: 'model server status and capabilities' },
    description: { th: 'สถานะเซิร์ฟเวอร์โมเดลและความสามารถ', en: 'Model server status and capabilities' },
  }),
  plain('reset', {
    summary: { th: 'ล้างประวัติการสนทนาในห้องนี้', en: "clear this conversation's history" },
    description: { th: 'ล้างประวัติการสนทนาในห้องนี้', en: "Clear this conversation's history" },
    discordDescription: { th: 'ล้างประวัติการสนทนาในห้องนี้', en: "Clear this channel's conversation history" },
  }),
  plain(
    'whoami',
    {
      summary: { th: 'รหัสผู้ใช้ของคุณสำหรับ ADMIN_IDS และรหัสของห้องนี้', en: 'your user id for ADMIN_IDS and the id of this chat' },
      description: { th: 'รหัสผู้ใช้ของคุณ (สำหรับ ADMIN_IDS)', en: 'Your user id (for ADMIN_IDS)' },
    },
    { answersPrivately: true },
  ),
  plain(
    'research',
    {
      summary: {
        th: 'ค้นคว้าเชิงลึกจากเว็บหลายรอบ พร้อมแหล่งที่มา: /research <คำถาม>',
        en: 'in-depth web research over several searches, with sources: /research <question>',
      },
      description: { th: 'ค้นคว้าเชิงลึกจากเว็บ พร้อมแหล่งที่มา', en: 'Research the web in depth, with sources' },
    },
    { options: [text('question', true, { th: 'คำถาม', en: 'Question' })], needsSearch: true },
  ),
  plain(
    'kb',
    {
      summary: { th: 'จัดการคลังความรู้ (ผู้ดูแล)', en: 'manage knowledge bases (admins)' },
      description: { th: 'จัดการคลังความรู้ (ผู้ดูแล)', en: 'Manage knowledge bases (admins)' },
      discordDescription: { th: 'จัดการคลังความรู้ของเซิร์ฟเวอร์ (ผู้ดูแล)', en: "Manage the server's knowledge bases (admins)" },
    },
    { subcommands: knowledgeSubcommands, administrators: true, answersPrivately: true },
  ),
  plain(
    'usage',
    {
      summary: {
        th: 'สถิติการใช้งาน (ครั้ง เวลาโมเดล โทเค็น การค้นเว็บ) ต่อกลุ่มและผู้ใช้ (ผู้ดูแล): /usage [today|7d|30d]',
        en: 'usage figures (turns, model time, tokens, web searches) per group and user (admins): /usage [today|7d|30d]',
      },
      description: { th: 'สถิติการใช้งานของบอท (ผู้ดูแล)', en: 'Usage figures of the bot (admins)' },
    },
    {
      options: [
        {
          name: 'period',
          kind: 'string',
          required: false,
          description: { th: 'ช่วงเวลาของรายชื่อที่ใช้มากที่สุด', en: 'Period of the top list' },
          choices: [
            { value: 'today', name: { th: 'วันนี้', en: 'Today' } },
            { value: '7d', name: { th: '7 วัน', en: '7 days' } },
            { value: '30d', name: { th: '30 วัน', en: '30 days' } },
          ],
        },
      ],
      administrators: true,
      answersPrivately: true,
    },
  ),
  plain(
    'remind',
    {
      summary: {
        th: 'ตั้งเตือนในห้องนี้: /remind พรุ่งนี้ 9 โมง ประชุม · /remind ทุกวันจันทร์ 8 โมงครึ่ง ส่งรายงาน · /remind cancel <เลข>',
        en: 'set a reminder in this chat: /remind tomorrow at 9am meeting · /remind every Monday at 8:30 report · /remind cancel <number>',
      },
      description: { th: 'ตั้งเตือนในห้องนี้', en: 'Set a reminder in this chat' },
      discordDescription: { th: 'ตั้งเตือนในช่องนี้', en: 'Set a reminder in this channel' },
    },
    { subcommands: remindSubcommands },
  ),
  plain(
    'summary',
    {
      summary: {
        th: 'สรุปที่คุยกันในกลุ่ม: /summary (ตั้งแต่ข้อความล่าสุดของคุณ) · /summary วันนี้ · /summary 3 ชม. · ผู้ดูแล: /summary on|off',
        en: 'catch up on the group: /summary (since your last message) · /summary today · /summary 3h · admins: /summary on|off',
      },
      description: { th: 'สรุปที่คุยกันในกลุ่ม', en: 'Summarize what the group said' },
      discordDescription: { th: 'สรุปที่คุยกันในเซิร์ฟเวอร์นี้', en: 'Summarize what was said in this server' },
    },
    {
      options: [
        text('span', false, {
          th: 'วันนี้ · 3 ชม. · ผู้ดูแล: on 7 (เก็บ 7 วัน), off (หยุดและลบ) · ว่าง: ตั้งแต่ข้อความล่าสุดของคุณ',
          en: 'today · 3h · admins: on 7 (keep 7 days), off (stop, delete) · empty: since your last message',
        }),
      ],
    },
  ),
  plain('reminders', {
    summary: { th: 'รายการการเตือนในห้องนี้', en: 'the reminders in this chat' },
    description: { th: 'รายการการเตือนในห้องนี้', en: 'The reminders in this chat' },
    discordDescription: { th: 'รายการการเตือนในช่องนี้', en: 'The reminders in this channel' },
  }),
  plain(
    'web',
    {
      summary: {
        th: 'ลิงก์เข้าหน้าผู้ดูแลบนเว็บ (ส่งทางแชทส่วนตัว ใช้ได้ครั้งเดียว) (ผู้ดูแล): /web · /web sessions · /web logout all',
        en: 'a one-time link to the admin web page, sent privately (admins): /web · /web sessions · /web logout all',
      },
      description: { th: 'ลิงก์เข้าหน้าผู้ดูแลบนเว็บ (ผู้ดูแล)', en: 'A link to the admin web page (admins)' },
    },
    {
      options: [
        {
          name: 'action',
          kind: 'string',
          required: false,
          description: { th: 'ว่าง: ขอลิงก์', en: 'empty: get a link' },
          choices: [
            { value: 'sessions', name: { th: 'ดูการเข้าสู่ระบบ', en: 'My sessions' } },
            { value: 'logout all', name: { th: 'ออกจากระบบทั้งหมด', en: 'Log out everywhere' } },
          ],
        },
      ],
      administrators: true,
      answersPrivately: true,
    },
  ),
  plain(
    'settings',
    {
      summary: {
        th: 'ตั้งค่าของกลุ่ม: ภาษา การเรียกบอท โควตา คำแนะนำเพิ่มเติม ฯลฯ (ผู้ดูแล): /settings help',
        en: "this group's settings: language, how the bot is called, quota, extra instructions… (admins): /settings help",
      },
      description: { th: 'ตั้งค่าของกลุ่มนี้ (ผู้ดูแล)', en: "This group's settings (admins)" },
      discordDescription: { th: 'ตั้งค่าของเซิร์ฟเวอร์นี้ (ผู้ดูแล)', en: "This server's settings (admins)" },
    },
    { subcommands: settingsSubcommands, administrators: true, answersPrivately: true },
  ),
];

export function commandSpec(name: string): CommandSpec | undefined {
  return commandTable.find((command) => command.name === name);
}

/** A command's table entry; one that is not in the table is an error in the code, not in the input. */
export function commandEntry(name: string): CommandSpec {
  const spec = commandSpec(name);
  if (!spec) throw new Error(`/${name} is not in the command table`);
  return spec;
}

/**
 * Whether `/name subcommand` takes files: it has attachment options (a slash command's uploads; a typed command's
 * attachments and the files sent just before it, src/router.ts).
 */
export function takesFiles(name: string, subcommand: string | undefined): boolean {
  const spec = commandSpec(name);
  const options = spec?.subcommands.length ? spec.subcommands.find((candidate) => candidate.name === subcommand?.toLowerCase())?.options : spec?.options;
  return options?.some((option) => option.kind === 'attachment') ?? false;
}
