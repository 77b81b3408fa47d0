import { commandEntry } from '../shared/command-table.js';
import { pick, say, type Localized } from '../shared/i18n.js';
import { logFailure } from '../shared/log.js';
import type { InboundMessage } from '../shared/types.js';
import type { WebGrant, WebSessions } from '../web/web-sessions.js';
import { adminIdOf } from './admin-id.js';
import type { CommandContext, CommandHandler } from './command.js';

// `/web`: a one-time link to the admin web page (docs/architecture.md, "Admin web page"). The chat already knows
// who the admin is, so there is no password: a bot admin (ADMIN_IDS) gets every space, a group admin asking in their
// group gets that group. The link is a credential: it goes only to the asker's private chat (or the console), never
// into a group. `/web sessions` lists the asker's sessions, `/web logout all` ends them.

const texts = {
  link: {
    th: '🔐 ลิงก์เข้าหน้าผู้ดูแล ({scope}) ใช้ได้ครั้งเดียว ภายใน {minutes} นาที อย่าส่งต่อให้ใคร:\n{url}',
    en: '🔐 Your link to the admin page ({scope}); it works once, within {minutes} minutes. Do not share it:\n{url}',
  },
  scopeGlobal: { th: 'ทุกกลุ่ม', en: 'every group' },
  scopeSpace: { th: 'กลุ่มนี้: {space}', en: 'this group: {space}' },
  sentPrivately: { th: 'ส่งลิงก์เข้าหน้าผู้ดูแลไปทางแชทส่วนตัวแล้วครับ', en: 'I sent you the admin page link in a private chat.' },
  privateFailed: {
    th: 'ส่งลิงก์ทางแชทส่วนตัวไม่ได้ กรุณาเปิดแชทส่วนตัวกับบอทก่อน (กด Start) แล้วพิมพ์ /web ในกลุ่มนี้อีกครั้ง',
    en: 'I could not message you privately. Open a private chat with the bot first (press Start), then type /web in this group again.',
  },
  noPrivateChat: {
    th: 'แพลตฟอร์มนี้ส่งลิงก์ทางแชทส่วนตัวให้ไม่ได้ ผู้ดูแลระบบ (ADMIN_IDS) พิมพ์ /web ในแชทส่วนตัวกับบอทได้',
    en: 'On this platform I cannot send the link privately. Bot admins (ADMIN_IDS) can type /web in a private chat with the bot.',
  },
  notAdmin: {
    th: 'ขออภัยครับ /web ใช้ได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) หรือผู้ดูแลกลุ่ม (พิมพ์ในกลุ่มที่คุณดูแล)',
    en: 'Sorry, /web is only for the bot admins (ADMIN_IDS) or a group’s admins (typed in the group they manage).',
  },
  groupAdminInPrivate: {
    th: 'ผู้ดูแลกลุ่ม: พิมพ์ /web ในกลุ่มที่คุณดูแล แล้วบอทจะส่งลิงก์ของกลุ่มนั้นมาทางแชทส่วนตัว',
    en: 'Group admins: type /web in the group you manage, and the link for that group comes to your private chat.',
  },
  noServer: {
    th: 'หน้าผู้ดูแลยังไม่พร้อม: เซิร์ฟเวอร์ HTTP ของบอทไม่ได้ทำงาน (ดู HTTP_PORT ในบันทึกของบอท)',
    en: 'The admin page is not available: the bot’s HTTP server is not running (see HTTP_PORT in the bot’s log).',
  },
  sessions: { th: 'การเข้าสู่ระบบหน้าผู้ดูแลของคุณ ({count}):', en: 'Your admin page sessions ({count}):' },
  sessionLine: { th: '- เริ่ม {created} · ใช้ล่าสุด {seen}', en: '- started {created} · last used {seen}' },
  noSessions: { th: 'คุณไม่มีการเข้าสู่ระบบหน้าผู้ดูแลที่ยังใช้อยู่', en: 'You have no admin page sessions.' },
  loggedOut: { th: 'ออกจากระบบหน้าผู้ดูแลทั้งหมดแล้ว ({count} รายการ)', en: 'Logged out of the admin page everywhere ({count} sessions).' },
  usage: {
    th: 'วิธีใช้: /web (ขอลิงก์) · /web sessions (ดูการเข้าสู่ระบบ) · /web logout all (ออกจากระบบทั้งหมด)',
    en: 'Usage: /web (a link) · /web sessions (your sessions) · /web logout all (log out everywhere)',
  },
} satisfies Record<string, Localized>;

export interface WebCommandDependencies {
  sessions: WebSessions;
  /** Where the admin page is reached (PUBLIC_BASE_URL, else the HTTP server's loopback address); undefined when it is not running. */
  baseUrl(): string | undefined;
  /** Sends to the asker's private chat: 'unavailable' when the platform cannot. */
  sendPrivately(message: InboundMessage, text: string): Promise<'sent' | 'unavailable' | 'failed'>;
  timeZone: string;
}

/** The grant the chat can vouch for, or why there is none. */
function grantOf(context: CommandContext): WebGrant | 'not-admin' | 'group-admin-in-private' {
  const { message, language } = context;
  const base = { adminId: adminIdOf(message), name: message.sender.name, language };
  if (context.isGlobalAdmin) return { ...base, scope: { kind: 'global' } };
  if (message.chatKind === 'group' && message.sender.isPlatformAdmin) return { ...base, scope: { kind: 'spaces', spaceKeys: [message.spaceKey] } };
  return message.chatKind === 'group' ? 'not-admin' : 'group-admin-in-private';
}

function when(at: number, context: CommandContext, timeZone: string): string {
  return new Intl.DateTimeFormat(context.language === 'th' ? 'th-TH' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

export function createWebCommand(dependencies: WebCommandDependencies): CommandHandler {
  const { sessions } = dependencies;
  return {
    name: 'web',
    summary: commandEntry('web').summary,
    run: async (command, context) => {
      const { message, language } = context;
      const words = command.words.map((word) => word.toLowerCase());
      const adminId = adminIdOf(message);
      if (words[0] === 'sessions') {
        const live = await sessions.list(adminId);
        if (live.length === 0) return { text: pick(texts.noSessions, language) };
        const lines = live.map((session) =>
          say(texts.sessionLine, language, {
            created: when(session.createdAt, context, dependencies.timeZone),
            seen: when(session.lastSeenAt, context, dependencies.timeZone),
          }),
        );
        return { text: [say(texts.sessions, language, { count: live.length }), ...lines].join('\n') };
      }
      if (words[0] === 'logout') return { text: say(texts.loggedOut, language, { count: await sessions.endAll(adminId) }) };
      if (words.length > 0) return { text: pick(texts.usage, language) };
      const grant = grantOf(context);
      if (grant === 'not-admin') return { text: pick(texts.notAdmin, language) };
      if (grant === 'group-admin-in-private') return { text: pick(texts.groupAdminInPrivate, language) };
      const baseUrl = dependencies.baseUrl();
      if (!baseUrl) return { text: pick(texts.noServer, language) };
      const token = await sessions.issueLoginToken(grant);
      const scope = grant.scope.kind === 'global' ? pick(texts.scopeGlobal, language) : say(texts.scopeSpace, language, { space: message.spaceKey });
      const minutes = Math.round(sessions.limits.loginTokenMs / 60_000);
      const link = say(texts.link, language, { scope, minutes, url: `${baseUrl}/admin/login?t=${token}` });
      // In a private chat (or the console) the answer is private already; in a group it must not carry the link.
      if (message.chatKind !== 'group') return { text: link };
      const sent = await dependencies.sendPrivately(message, link).catch((error: unknown) => {
        logFailure(context.log, 'warn', { platform: message.platform }, 'web: the private message with the link failed', error);
        return 'failed' as const;
      });
      if (sent === 'sent') return { text: pick(texts.sentPrivately, language) };
      return { text: pick(sent === 'unavailable' ? texts.noPrivateChat : texts.privateFailed, language) };
    },
  };
}
