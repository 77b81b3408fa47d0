import { Telegraf, TelegramError } from 'telegraf';
import { afterEach, describe, expect, it } from 'vitest';
import {
  groupChat,
  isUploadedFile,
  privateChat,
  startFakeTelegram,
  textMessageUpdate,
  tooManyRequests,
  user,
  botBlockedByUser,
  type FakeTelegram,
  type FakeTelegramOptions,
  type PushedUpdate,
} from './index.js';

// The fake is only worth something if real telegraf 4.16.3 cannot tell it from api.telegram.org: every test here
// drives telegraf itself (its HTTP client, multipart encoder, polling loop and error class) against the fake.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const group = groupChat(-1001234567890, 'ทีมแสง');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(options: FakeTelegramOptions = {}): Promise<{ fake: FakeTelegram; bot: Telegraf }> {
  const fake = await startFakeTelegram({ chats: [direct, group], ...options });
  cleanups.push(() => fake.close());
  const bot = new Telegraf(fake.token, { telegram: { apiRoot: fake.url } });
  return { fake, bot };
}

/** Starts long polling; the returned stop() stops telegraf and waits for its loop to end. */
async function launch(fake: FakeTelegram, bot: Telegraf): Promise<() => Promise<void>> {
  const running = bot.launch();
  // A launch that fails (getMe, deleteWebhook) ends the test at once instead of leaving it waiting for a poll.
  await Promise.race([fake.waitForCall('getUpdates'), running.then(() => Promise.reject(new Error('telegraf stopped before polling')))]);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (!stopped) bot.stop('test over');
    stopped = true;
    await running;
  };
  cleanups.push(stop);
  return stop;
}

/** Pushes an update the bot is meant to receive. */
function push<Pushed extends PushedUpdate>(fake: FakeTelegram, update: Pushed): Pushed & { update_id: number } {
  const queued = fake.pushUpdate(update);
  if (!queued) throw new Error('the fake dropped an update this test expects to be delivered');
  return queued;
}

async function telegramError(promise: Promise<unknown>): Promise<TelegramError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof TelegramError)) throw new Error(`expected a TelegramError, got ${String(error)}`);
  return error;
}

describe('fake Telegram Bot API under real telegraf', () => {
  it('answers getMe with the configured bot and rejects a wrong token with 401 Unauthorized', async () => {
    const { fake, bot } = await setUp({ bot: { id: 42, username: 'Saeng_Bot', first_name: 'แสง', can_read_all_group_messages: false } });
    const me = await bot.telegram.getMe();
    expect(me).toEqual({
      id: 42,
      is_bot: true,
      first_name: 'แสง',
      username: 'Saeng_Bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    });
    const stranger = new Telegraf(`${fake.token}x`, { telegram: { apiRoot: fake.url } });
    const error = await telegramError(stranger.telegram.getMe());
    expect([error.code, error.description]).toEqual([401, 'Unauthorized']);
    const unknown = await telegramError(bot.telegram.callApi('noSuchMethod' as 'getMe', {}));
    expect([unknown.code, unknown.description]).toEqual([404, 'Not Found']);
  });

  it('delivers a pushed update to a polling handler, confirms it by offset and stops cleanly', async () => {
    const { fake, bot } = await setUp();
    const seen: number[] = [];
    let onSecond: () => void = () => undefined;
    const second = new Promise<void>((resolve) => (onSecond = resolve));
    bot.on('text', (context) => {
      seen.push(context.update.update_id);
      if (seen.length === 2) onSecond();
    });
    const stop = await launch(fake, bot);
    const first = push(fake, textMessageUpdate({ chat: direct, from: somchai, text: 'สวัสดี 👋' }));
    // telegraf's next poll carries offset = update_id + 1, which confirms the first update.
    const confirming = await fake.waitForCall('getUpdates', (call) => Number(call.params.offset) === first.update_id + 1);
    expect(confirming.params.timeout).toBe(50);
    expect(fake.pendingUpdates()).toBe(0);
    const next = push(fake, textMessageUpdate({ chat: direct, from: somchai, text: 'อีกข้อความ' }));
    await second;
    expect(seen).toEqual([first.update_id, next.update_id]);
    await stop();
    expect(fake.callsOf('deleteWebhook')).toHaveLength(1);
  });

  it('retries getUpdates after a 429 as telegraf does, then delivers', async () => {
    const { fake, bot } = await setUp();
    fake.failNext('getUpdates', tooManyRequests(0));
    let onText: (text: string) => void = () => undefined;
    const received = new Promise<string>((resolve) => (onText = resolve));
    bot.on('text', (context) => onText(context.message.text));
    await launch(fake, bot);
    fake.pushUpdate(textMessageUpdate({ chat: direct, from: somchai, text: 'ยังอยู่ไหม' }));
    expect(await received).toBe('ยังอยู่ไหม');
    expect(fake.callsOf('getUpdates')[0]?.outcome).toEqual({ ok: false, error: tooManyRequests(0) });
  });

  it('answers a held poll with an empty list when the fake closes', async () => {
    const fake = await startFakeTelegram();
    const bot = new Telegraf(fake.token, { telegram: { apiRoot: fake.url } });
    const poll = bot.telegram.getUpdates(50, 100, 0, []);
    await fake.waitForCall('getUpdates');
    await fake.close();
    expect(await poll).toEqual([]);
  });

  it('sends a message with the real Message shape, the chat type and the replied-to message', async () => {
    const { fake, bot } = await setUp();
    const question = push(fake, textMessageUpdate({ chat: group, from: somchai, text: 'ราคาเท่าไร' }));
    const sent = await bot.telegram.sendMessage(group.id, '<b>ราคา</b> 100 บาท', {
      parse_mode: 'HTML',
      reply_parameters: { message_id: question.message.message_id },
    });
    expect(sent.chat).toEqual(group);
    expect(sent.text).toBe('ราคา 100 บาท');
    expect(sent.entities).toEqual([{ type: 'bold', offset: 0, length: 4 }]);
    expect(sent.reply_to_message?.message_id).toBe(question.message.message_id);
    expect(sent.from?.id).toBe(fake.bot.id);
    expect(fake.sentMessages(group.id)).toEqual([sent]);
    const missing = await telegramError(bot.telegram.sendMessage(group.id, 'x', { reply_parameters: { message_id: 999_999 } }));
    expect(missing.description).toBe('Bad Request: message to be replied not found');
    const nowhere = await telegramError(bot.telegram.sendMessage(-5, 'x'));
    expect(nowhere.description).toBe('Bad Request: chat not found');
  });

  it('rejects bad HTML and unescaped MarkdownV2 with the real 400 descriptions', async () => {
    const { bot } = await setUp();
    const cases: [string, 'HTML' | 'MarkdownV2', string][] = [
      ['<foo>x</foo>', 'HTML', 'Unsupported start tag "foo" at byte offset 0'],
      ['<b>ตัวหนา', 'HTML', 'Can\'t find end tag corresponding to start tag "b"'],
      ['<b><i>x</b></i>', 'HTML', 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'],
      ['1 < 2', 'HTML', 'Unsupported start tag "" at byte offset 2'],
      ['ราคา 1.5 บาท', 'MarkdownV2', "Character '.' is reserved and must be escaped with the preceding '\\'"],
      ['*ตัวหนา', 'MarkdownV2', "Can't find end of Bold entity at byte offset 0"],
    ];
    for (const [text, parse_mode, detail] of cases) {
      const error = await telegramError(bot.telegram.sendMessage(direct.id, text, { parse_mode }));
      expect([error.code, error.description]).toEqual([400, `Bad Request: can't parse entities: ${detail}`]);
    }
    const escaped = await bot.telegram.sendMessage(direct.id, 'ราคา 1\\.5 *บาท*', { parse_mode: 'MarkdownV2' });
    expect([escaped.text, escaped.entities]).toEqual(['ราคา 1.5 บาท', [{ type: 'bold', offset: 9, length: 3 }]]);
  });

  it('enforces 1–4096 characters after entity parsing', async () => {
    const { bot } = await setUp();
    const full = await bot.telegram.sendMessage(direct.id, `<b>${'ก'.repeat(4096)}</b>`, { parse_mode: 'HTML' });
    expect(full.text).toHaveLength(4096);
    const tooLong = await telegramError(bot.telegram.sendMessage(direct.id, 'ก'.repeat(4097)));
    expect([tooLong.code, tooLong.description]).toEqual([400, 'Bad Request: message is too long']);
    const empty = await telegramError(bot.telegram.sendMessage(direct.id, '<b></b>', { parse_mode: 'HTML' }));
    expect(empty.description).toBe('Bad Request: message text is empty');
  });

  it('edits text and refuses an edit that changes nothing', async () => {
    const { bot } = await setUp();
    const sent = await bot.telegram.sendMessage(direct.id, 'กำลังคิด…');
    const edited = await bot.telegram.editMessageText(direct.id, sent.message_id, undefined, 'คำตอบ');
    expect(edited).toMatchObject({ message_id: sent.message_id, text: 'คำตอบ' });
    const same = await telegramError(bot.telegram.editMessageText(direct.id, sent.message_id, undefined, 'คำตอบ'));
    expect(same.description).toMatch(/^Bad Request: message is not modified: /);
  });

  it('throws the switched failures: 429 with retry_after, 403 blocked, a lost connection', async () => {
    const { fake, bot } = await setUp();
    fake.failNext('sendMessage', tooManyRequests(7));
    const limited = await telegramError(bot.telegram.sendMessage(direct.id, 'ช้าหน่อย'));
    expect([limited.code, limited.description, limited.parameters]).toEqual([429, 'Too Many Requests: retry after 7', { retry_after: 7 }]);
    fake.failNext('sendChatAction', botBlockedByUser());
    const blocked = await telegramError(bot.telegram.sendChatAction(direct.id, 'typing'));
    expect([blocked.code, blocked.description]).toEqual([403, 'Forbidden: bot was blocked by the user']);
    fake.disconnectNext('sendMessage');
    await expect(bot.telegram.sendMessage(direct.id, 'หาย')).rejects.toMatchObject({ name: 'FetchError' });
    expect((await bot.telegram.sendMessage(direct.id, 'กลับมาแล้ว')).text).toBe('กลับมาแล้ว');
    expect(fake.callsOf('sendMessage').map((call) => call.outcome?.ok)).toEqual([false, false, true]);
  });

  it('receives sendDocument as multipart with the bytes, caption and filename', async () => {
    const { fake, bot } = await setUp();
    const bytes = Buffer.from('รายงานประจำเดือน\n', 'utf8');
    const sent = await bot.telegram.sendDocument(direct.id, { source: bytes, filename: 'report.txt' }, { caption: 'ไฟล์รายงาน' });
    const document = fake.callsOf('sendDocument')[0]?.params.document;
    if (!isUploadedFile(document)) throw new Error('no uploaded file in the call log');
    expect([document.name, document.bytes.equals(bytes)]).toEqual(['report.txt', true]);
    expect(fake.callsOf('sendDocument')[0]?.params.chat_id).toBe(String(direct.id));
    expect(sent.document).toMatchObject({ file_name: 'report.txt', mime_type: 'text/plain', file_size: bytes.length });
    expect(sent.caption).toBe('ไฟล์รายงาน');
    const tooLong = await telegramError(bot.telegram.sendPhoto(direct.id, { source: bytes }, { caption: 'ก'.repeat(1025) }));
    expect(tooLong.description).toBe('Bad Request: message caption is too long');
  });

  it('serves a registered file through getFileLink, and refuses files over 20 MB', async () => {
    const { fake, bot } = await setUp();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    fake.addFile('AgACPhoto1', bytes, { path: 'photos/file_7.png' });
    const link = await bot.telegram.getFileLink('AgACPhoto1');
    expect(link.href).toBe(`${fake.url}/file/bot${fake.token}/photos/file_7.png`);
    const download = await fetch(link);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    fake.addFile('BQACHuge', Buffer.alloc(0), { size: 21 * 1024 * 1024 });
    const huge = await telegramError(bot.telegram.getFile('BQACHuge'));
    expect(huge.description).toBe('Bad Request: file is too big');
  });

  it('records setWebhook with its secret token and refuses getUpdates while a webhook is set', async () => {
    const { fake, bot } = await setUp();
    await bot.telegram.setWebhook('https://saeng.example/telegram', { secret_token: 'hook-secret_1', allowed_updates: ['message'] });
    expect(fake.webhook()).toMatchObject({ url: 'https://saeng.example/telegram', secret_token: 'hook-secret_1', allowed_updates: ['message'] });
    expect((await bot.telegram.getWebhookInfo()).url).toBe('https://saeng.example/telegram');
    const conflict = await telegramError(bot.telegram.getUpdates(0, 100, 0, []));
    expect(conflict.code).toBe(409);
    await bot.telegram.deleteWebhook();
    expect(await bot.telegram.getUpdates(0, 100, 0, [])).toEqual([]);
  });

  it('keeps command menus per scope and language, and answers member status from its table', async () => {
    const { fake, bot } = await setUp({ members: [{ chatId: group.id, userId: somchai.id, status: 'administrator' }] });
    const adminScope = { type: 'all_chat_administrators' } as const;
    await bot.telegram.setMyCommands([{ command: 'kb', description: 'คลังความรู้' }], { scope: adminScope, language_code: 'th' });
    expect(fake.commands(adminScope, 'th')).toEqual([{ command: 'kb', description: 'คลังความรู้' }]);
    expect(await bot.telegram.getMyCommands({ scope: adminScope })).toEqual([]);
    await bot.telegram.deleteMyCommands({ scope: adminScope, language_code: 'th' });
    expect(fake.commands(adminScope, 'th')).toBeUndefined();
    expect((await bot.telegram.getChatMember(group.id, somchai.id)).status).toBe('administrator');
    expect((await bot.telegram.getChatMember(group.id, 777)).status).toBe('member');
    expect((await bot.telegram.getChatAdministrators(group.id)).map((member) => member.user.id)).toEqual([somchai.id]);
  });
});
