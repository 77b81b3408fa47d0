import type { GroupLogEntry } from '../src/catchup/group-log-entry.js';
import { seeded } from './seeded.js';

// A deterministic Thai group chat for `npm run bench -- summary`: an office group over a few days, ten topics that
// come back across conversations, eight people, figures (prices, times, dates), chit-chat and stickers, and quiet
// spells between conversations (nights, meetings). Each topic has a keyword only it uses: the scripted model
// recognizes topics by them, and the bench counts which topics reach the final summary.

export interface SyntheticTopic {
  /** The distinctive word: in the messages of this topic only. */
  keyword: string;
  /** Message templates: {n} a number, {price} an amount, {time} a clock time, {day} a day of the month. */
  lines: readonly string[];
}

export const syntheticTopics: readonly SyntheticTopic[] = [
  {
    keyword: 'เชียงใหม่',
    lines: [
      'ทริปเชียงใหม่ไปวันที่ {day} ดีไหมทุกคน',
      'ที่พักที่เชียงใหม่คืนละ {price} บาท โอเคไหม',
      'รถตู้ไปเชียงใหม่ค่ารถคนละ {price} บาท',
      'ใครไปได้บ้าง ยกมือหน่อย',
      'ผมไปได้ แต่ขอกลับก่อนวันอาทิตย์นะ',
      'ตกลงไปเชียงใหม่วันที่ {day} นะ จองเลย',
      'อยากไปดอยสุเทพด้วย ใครเอาด้วยบ้าง',
    ],
  },
  {
    keyword: 'งานเลี้ยงปีใหม่',
    lines: [
      'งบงานเลี้ยงปีใหม่ปีนี้ได้ {price} บาท',
      'จัดที่ร้านหมูกระทะดีไหม หัวละ {n}00 บาท',
      'ธีมงานเลี้ยงปีใหม่ปีนี้เอาชุดไทยไหม',
      'จับฉลากของขวัญราคาไม่เกิน {n}00 บาทนะ',
      'งานเลี้ยงปีใหม่เริ่ม {time} นะทุกคน',
      'ใครเป็นพิธีกรดี',
    ],
  },
  {
    keyword: 'แอร์ห้องประชุม',
    lines: [
      'แอร์ห้องประชุมเสียอีกแล้ว ร้อนมาก',
      'แจ้งช่างแล้ว ช่างจะมา {time}',
      'ค่าซ่อมแอร์ห้องประชุมประมาณ {price} บาท',
      'วันนี้ย้ายไปประชุมห้องเล็กก่อนนะ',
      'ช่างบอกต้องเปลี่ยนคอมเพรสเซอร์',
    ],
  },
  {
    keyword: 'เซิร์ฟเวอร์ล่ม',
    lines: [
      'เซิร์ฟเวอร์ล่มตั้งแต่ {time} ลูกค้าเข้าเว็บไม่ได้',
      'กำลังรีสตาร์ตอยู่ รอแป๊บ',
      'สาเหตุเซิร์ฟเวอร์ล่มคือดิสก์เต็ม {n}0%',
      'กลับมาใช้ได้แล้ว ล่มไปประมาณ {n}0 นาที',
      'ต้องเขียนรายงานเหตุการณ์ส่งหัวหน้าภายในวันที่ {day}',
    ],
  },
  {
    keyword: 'สยามพาณิชย์',
    lines: [
      'ลูกค้าสยามพาณิชย์ขอใบเสนอราคาใหม่',
      'ราคาที่เสนอสยามพาณิชย์ไป {price} บาท',
      'เขาขอส่วนลด {n}% ได้ไหม',
      'นัดประชุมกับสยามพาณิชย์วันที่ {day} เวลา {time}',
      'ใครจะไปพรีเซนต์กับลูกค้า',
      'ส่งสัญญาให้ฝ่ายกฎหมายดูก่อนนะ',
    ],
  },
  {
    keyword: 'ฟุตบอล',
    lines: ['เย็นวันศุกร์เตะฟุตบอลกันไหม', 'จองสนามฟุตบอลแล้ว ชั่วโมงละ {price} บาท', 'เริ่ม {time} นะ อย่ามาสาย', 'ขาดอีกสองคน ใครว่างบ้าง', 'ผมเอาลูกฟุตบอลไปเอง'],
  },
  {
    keyword: 'ข้าวมันไก่',
    lines: ['ร้านข้าวมันไก่เปิดใหม่หน้าออฟฟิศอร่อยมาก', 'ข้าวมันไก่จานละ {n}0 บาทเอง', 'เที่ยงนี้ไปกินข้าวมันไก่กันไหม', 'คิวยาวมาก ไปก่อน {time} ดีกว่า'],
  },
  {
    keyword: 'สัมมนาการตลาด',
    lines: ['มีสัมมนาการตลาดออนไลน์วันที่ {day} ใครสนใจบ้าง', 'ค่าสมัครสัมมนาการตลาดคนละ {price} บาท บริษัทออกให้', 'ลงชื่อภายในวันที่ {day} นะ', 'หัวข้อปีนี้เรื่องโฆษณาบนติ๊กต็อก'],
  },
  {
    keyword: 'ย้ายออฟฟิศ',
    lines: [
      'เรื่องย้ายออฟฟิศไปตึกใหม่ ย้ายวันที่ {day}',
      'ค่าขนย้ายทั้งหมด {price} บาท',
      'ทุกคนแพ็กของใส่กล่องให้เสร็จก่อน {time} วันศุกร์',
      'ที่จอดรถตึกใหม่มี {n}0 คัน ไม่พอแน่',
      'ยังไม่รู้ว่าโต๊ะใครอยู่ตรงไหน',
    ],
  },
  {
    keyword: 'วันเกิดหัวหน้า',
    lines: ['อาทิตย์หน้าวันเกิดหัวหน้า เซอร์ไพรส์กันไหม', 'ลงขันซื้อเค้กวันเกิดหัวหน้าคนละ {n}0 บาท', 'สั่งเค้กร้านเดิมนะ ปอนด์ละ {price} บาท', 'อย่าให้หัวหน้ารู้นะ'],
  },
];

const chitChat = [
  '555',
  'ฮ่าๆๆๆ',
  'จริงดิ',
  '[สติกเกอร์]',
  'อรุณสวัสดิ์ทุกคน',
  'กินข้าวกันยัง',
  '😂😂😂',
  'เห็นด้วย',
  'โอเคครับ',
  'รับทราบค่ะ',
  'ขอบคุณมากครับ',
  'เดี๋ยวมานะ',
  'ฝนตกหนักมากวันนี้ รถติดสุดๆ',
  'ใครเห็นกุญแจรถผมบ้าง',
  '👍',
];

const speakers = ['ต้น', 'ฝน', 'บอล', 'แพร', 'เจมส์', 'นุ่น', 'ก้อง', 'มิ้นท์'];

/** Monday 13 January 2025, 08:00 in Bangkok. */
const start = Date.UTC(2025, 0, 13, 1, 0);

function filled(template: string, random: () => number): string {
  const pick = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  return template
    .replaceAll('{n}', () => String(pick(2, 9)))
    .replaceAll('{price}', () => (pick(3, 250) * 100).toLocaleString('en-US'))
    .replaceAll('{time}', () => `${pick(9, 20)}:${pick(0, 1) === 0 ? '00' : '30'}`)
    .replaceAll('{day}', () => String(pick(14, 31)));
}

export interface SyntheticLog {
  entries: GroupLogEntry[];
  /** Topics that have at least three messages in the log (the ones a summary owes the reader). */
  topicsInLog: string[];
  /** Gaps of half an hour or more between two messages. */
  quietSpells: number;
}

/** `count` messages of the office group, the same for the same seed. */
export function syntheticLog(count: number, seed = 31): SyntheticLog {
  const random = seeded(seed);
  const entries: GroupLogEntry[] = [];
  const perTopic = new Map<string, number>();
  let at = start;
  let quietSpells = 0;
  for (let session = 0; entries.length < count; session++) {
    // A conversation: one or two topics (each topic returns every ten sessions), some chit-chat.
    const topics = [syntheticTopics[session % syntheticTopics.length], syntheticTopics[(session * 3 + 1) % syntheticTopics.length]];
    const length = 40 + Math.floor(random() * 120);
    for (let index = 0; index < length && entries.length < count; index++) {
      const topic = topics[random() < 0.65 ? 0 : 1];
      const text =
        random() < 0.22 || !topic
          ? (chitChat[Math.floor(random() * chitChat.length)] ?? '555')
          : filled(topic.lines[Math.floor(random() * topic.lines.length)] ?? '', random);
      if (topic && text.includes(topic.keyword)) perTopic.set(topic.keyword, (perTopic.get(topic.keyword) ?? 0) + 1);
      const speaker = Math.floor(random() * speakers.length);
      const id = 1_000 + entries.length;
      entries.push({
        spaceKey: 'telegram:-100123',
        messageId: String(id),
        at,
        speakerKey: `telegram:${500 + speaker}`,
        speaker: speakers[speaker] ?? 'ต้น',
        text,
        link: `https://t.me/c/123/${id}`,
      });
      at += 5_000 + Math.floor(random() * random() * 300_000);
    }
    // Between conversations: a meeting, lunch or the night.
    at += 35 * 60_000 + Math.floor(random() * 10 * 3_600_000);
    quietSpells++;
  }
  const topicsInLog = syntheticTopics.map((topic) => topic.keyword).filter((keyword) => (perTopic.get(keyword) ?? 0) >= 3);
  return { entries, topicsInLog, quietSpells: Math.max(0, quietSpells - 1) };
}
