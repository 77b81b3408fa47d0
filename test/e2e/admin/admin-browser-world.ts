import { groupChat, privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { serveAdminSite } from '../../support/admin-site.js';
import { startTelegramHarness, type TelegramHarness } from '../telegram/telegram-harness.js';

// The world of the admin page's browser tests: a whole bot on the fake Telegram (real telegraf), its HTTP server with
// the admin page on a loopback port, a bot admin (Somchai), a group's administrator (Manee) and a clock the tests move.

export const somchai = user(501, 'สมชาย', 'somchai');
export const manee = user(502, 'มานี', 'manee');
export const teamGroup = groupChat(-1001234567890, 'ทีมแสง');
export const otherGroup = groupChat(-1009876543210, 'กลุ่มอื่น');
const linkPattern = /http:\/\/127\.0\.0\.1:\d{1,5}\/admin\/login\?t=[\w-]{43}/;

export interface AdminBrowserWorld {
  harness: TelegramHarness;
  baseUrl: string;
  /** Moves the bot's clock (links and sessions expire by it). */
  advance(ms: number): void;
  /** `/web` typed by `who` in `chat`; the link the bot sent to their private chat. */
  askForLink(who: typeof somchai, chat?: typeof teamGroup): Promise<string>;
  close(): Promise<void>;
}

export async function startAdminBrowserWorld(environment: Record<string, string> = {}): Promise<AdminBrowserWorld> {
  let clock = Date.UTC(2026, 11, 7, 3, 0, 0);
  const harness = await startTelegramHarness({
    environment: { ADMIN_IDS: `telegram:${somchai.id}`, ...environment },
    telegram: {
      chats: [teamGroup, otherGroup, privateChat(somchai), privateChat(manee)],
      members: [{ chatId: teamGroup.id, userId: manee.id, status: 'administrator' }],
    },
    now: () => new Date(clock),
  });
  const site = await serveAdminSite(harness.test.app);
  return {
    harness,
    baseUrl: site.baseUrl,
    advance: (ms) => void (clock += ms),
    askForLink: async (who, chat) => {
      const direct = privateChat(who);
      await harness.deliver(textMessageUpdate({ chat: chat ?? direct, from: who, text: chat ? '/web@saeng_test_bot' : '/web' }));
      const link = linkPattern.exec(harness.sentTexts(direct.id).at(-1) ?? '')?.[0];
      if (!link) throw new Error(`no link in ${who.first_name}'s private chat`);
      return link;
    },
    close: async () => {
      await site.close();
      await harness.close();
    },
  };
}
