import { commandEntry } from '../shared/command-table.js';
import { say, type Localized } from '../shared/i18n.js';
import { lastDays, type UsageStore } from '../storage/usage-store.js';
import type { CommandContext, CommandHandler } from './command.js';
import { accessOf } from './kb/access.js';
import { countsLine, periodDays, periodNames, ranked, rankedLines, spaceLabel, sumOf, userLabel, type UsagePeriod } from './usage-report.js';

// `/usage [today|7d|30d]`: who used the model how much. In a group its admins (the same rule as /kb: ADMIN_IDS,
// or the platform's admin flag in their own group) see the group's sums and its top users; in a direct chat or the
// console a bot admin (ADMIN_IDS) sees the sums over every space and the top spaces. Counted where a turn ends
// (src/app.ts, usage-recorder.ts); commands that call the model (/research) are not turns and are not counted.

/** How many users or spaces the top list shows. */
export const usageTopCount = 10;

const texts = {
  groupHeading: { th: 'การใช้งานของกลุ่มนี้ (`{space}`)', en: 'Usage of this group (`{space}`)' },
  allHeading: { th: 'การใช้งานทั้งหมดของบอท', en: 'Usage of the whole bot' },
  topUsers: { th: 'ผู้ใช้ที่ใช้มากที่สุด ({period}):', en: 'Top users ({period}):' },
  topSpaces: { th: 'กลุ่ม/แชตที่ใช้มากที่สุด ({period}):', en: 'Top groups and chats ({period}):' },
  nothing: { th: '(ยังไม่มีการใช้งานในช่วงนี้)', en: '(no usage in this period)' },
  note: {
    th: 'นับเฉพาะคำถามที่ส่งให้โมเดลตอบ (รวมที่ล้มเหลวหรือถูกยกเลิก) ไม่นับคำสั่งอย่าง /research · เก็บไว้ 31 วัน',
    en: 'Counts questions the model answered (failed and cancelled ones too), not commands such as /research · kept 31 days',
  },
  unknownPeriod: {
    th: 'ไม่รู้จักช่วงเวลา “{word}” ใช้ /usage today, /usage 7d หรือ /usage 30d',
    en: 'Unknown period “{word}”. Use /usage today, /usage 7d or /usage 30d.',
  },
  notAllowedHere: {
    th: 'ขออภัยครับ คำสั่ง /usage ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น',
    en: 'Sorry, /usage is only for the admins of this group or the bot admins.',
  },
  botAdminsOnly: {
    th: 'ขออภัยครับ คำสั่ง /usage ใช้ได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) เท่านั้น พิมพ์ /whoami เพื่อดูรหัสของคุณสำหรับ ADMIN_IDS',
    en: 'Sorry, /usage is only for the bot admins (ADMIN_IDS). Type /whoami to see your id for ADMIN_IDS.',
  },
} satisfies Record<string, Localized>;

const periodWords: Record<string, UsagePeriod> = {
  today: 'today',
  วันนี้: 'today',
  '1d': 'today',
  '7d': '7d',
  '7': '7d',
  week: '7d',
  สัปดาห์: '7d',
  '30d': '30d',
  '30': '30d',
  month: '30d',
  เดือน: '30d',
};

/** The period the top list covers; undefined for a word that names none. */
export function parsePeriod(word: string | undefined): UsagePeriod | undefined {
  if (word === undefined || word === '') return '7d';
  return Object.hasOwn(periodWords, word.toLowerCase()) ? periodWords[word.toLowerCase()] : undefined;
}

export function createUsageCommand(store: UsageStore, settings: { timeZone: string }): CommandHandler {
  return {
    name: 'usage',
    summary: commandEntry('usage').summary,
    run: async (command, context) => {
      const { message, language } = context;
      const inGroup = message.chatKind === 'group' && message.platform !== 'console';
      const refusal = refusalFor(context, inGroup);
      if (refusal) return { text: say(refusal, language) };
      const word = command.words[0];
      const period = parsePeriod(word);
      if (!period) return { text: say(texts.unknownPeriod, language, { word: word ?? '' }) };

      const now = context.now();
      const spaceKey = inGroup ? message.spaceKey : undefined;
      // One read of the 30 days; the shorter periods are the same rows cut to their days.
      const month = lastDays(now, periodDays['30d'], settings.timeZone);
      const daily = await Promise.all(month.map(async (day) => ({ day, rows: await store.totals({ days: [day], ...(spaceKey ? { spaceKey } : {}) }) })));
      const rowsOf = (chosen: UsagePeriod) => daily.slice(0, periodDays[chosen]).flatMap((entry) => entry.rows);

      const lines = [inGroup ? say(texts.groupHeading, language, { space: message.spaceKey }) : say(texts.allHeading, language)];
      for (const each of ['today', '7d', '30d'] as const) lines.push(`- ${say(periodNames[each], language)}: ${countsLine(sumOf(rowsOf(each)), language)}`);
      lines.push('', say(inGroup ? texts.topUsers : texts.topSpaces, language, { period: say(periodNames[period], language) }));
      const top = inGroup
        ? ranked(rowsOf(period), (row) => row.userKey, userLabel, usageTopCount)
        : ranked(rowsOf(period), (row) => row.spaceKey, spaceLabel, usageTopCount);
      lines.push(...(top.length > 0 ? rankedLines(top, language) : [say(texts.nothing, language)]));
      lines.push('', say(texts.note, language));
      return { text: lines.join('\n') };
    },
  };
}

/** Group admins in their group, bot admins anywhere; a direct chat shows every space, so only bot admins there. */
function refusalFor(context: CommandContext, inGroup: boolean): Localized | undefined {
  const access = accessOf(context);
  if (access === 'global') return undefined;
  if (inGroup && access === 'space') return undefined;
  // LINE tells a bot of no group admins, and a direct chat is for bot admins: the way in is ADMIN_IDS.
  return inGroup && context.message.platform !== 'line' ? texts.notAllowedHere : texts.botAdminsOnly;
}
