import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createWebCommand, type WebCommandDependencies } from '../../../src/commands/web.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, Language } from '../../../src/shared/types.js';
import { WebSessions } from '../../../src/web/web-sessions.js';
import { inboundMessage } from '../../support/inbound-message.js';

// /web's answers where the platform cannot help (the Telegram, Discord and browser tests cover the way that works):
// a platform without private messages, a bot without its HTTP server has no page, a failed private send leaves
// no link anywhere; English with BOT_LANGUAGE=en; a word it does not know gets the usage line.

function context(message: InboundMessage, options: { language?: Language; global?: boolean } = {}): CommandContext {
  return {
    message,
    language: options.language ?? 'th',
    isGlobalAdmin: options.global ?? false,
    log: silentLogger(),
    now: () => new Date('2026-12-07T03:00:00Z'),
    progress: () => undefined,
    download: () => Promise.reject(new Error('no attachments')),
  };
}

function command(overrides: Partial<WebCommandDependencies> = {}) {
  const sent: string[] = [];
  const web = createWebCommand({
    sessions: new WebSessions(new Keyv()),
    baseUrl: () => 'http://127.0.0.1:3000',
    sendPrivately: async (_message, text) => {
      sent.push(text);
      return 'sent';
    },
    timeZone: 'Asia/Bangkok',
    ...overrides,
  });
  const run = async (text: string, message: InboundMessage, options?: { language?: Language; global?: boolean }) => {
    const words = text.split(' ').slice(1);
    return (await web.run({ name: 'web', rest: words.join(' '), words }, context(message, options))).text;
  };
  return { run, sent };
}

const discordGroupAdmin = inboundMessage({
  platform: 'discord',
  conversationKey: 'discord:channel-1',
  spaceKey: 'discord:guild-1',
  chatKind: 'group',
  sender: { id: '42', name: 'Malee', isPlatformAdmin: true },
});

describe('/web', () => {
  it('tells a group admin on a platform without private messages that it cannot send the link, and sends nothing', async () => {
    const { run, sent } = command({ sendPrivately: async () => 'unavailable' });
    const answer = await run('/web', discordGroupAdmin);
    expect(answer).toContain('แพลตฟอร์มนี้ส่งลิงก์ทางแชทส่วนตัวให้ไม่ได้');
    expect(answer).not.toContain('/admin/login');
    expect(sent).toEqual([]);
  });

  it('leaves no link anywhere when the private message fails, and says what to do, in English', async () => {
    const { run } = command({ sendPrivately: () => Promise.reject(new Error('403 Forbidden: bot was blocked by the user')) });
    const answer = await run('/web', discordGroupAdmin, { language: 'en' });
    expect(answer).toBe('I could not message you privately. Open a private chat with the bot first (press Start), then type /web in this group again.');
  });

  it('says the page is not available while the HTTP server is not running', async () => {
    const { run } = command({ baseUrl: () => undefined });
    expect(await run('/web', inboundMessage({ chatKind: 'direct' }), { global: true })).toContain('เซิร์ฟเวอร์ HTTP ของบอทไม่ได้ทำงาน');
  });

  it('gives a bot admin in a private chat the link in the answer itself, and the usage line for an unknown word', async () => {
    const { run, sent } = command();
    const answer = await run('/web', inboundMessage({ chatKind: 'direct' }), { global: true });
    expect(answer).toMatch(/^🔐 ลิงก์เข้าหน้าผู้ดูแล \(ทุกกลุ่ม\) ใช้ได้ครั้งเดียว ภายใน 10 นาที/);
    expect(answer).toMatch(/http:\/\/127\.0\.0\.1:3000\/admin\/login\?t=[\w-]{43}$/);
    expect(sent).toEqual([]);
    expect(await run('/web please', inboundMessage({ chatKind: 'direct' }), { global: true })).toContain('วิธีใช้: /web');
  });
});
