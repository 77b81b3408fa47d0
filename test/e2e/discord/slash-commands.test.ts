import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { commandOption, discordUser } from '../../fakes/discord/index.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// Slash commands through real discord.js on the fake: registered at start from one table (per guild with
// DISCORD_GUILD_IDS, else globally), deferred at once, answered by editing the deferred reply (admin replies only to
// the caller), continued in follow-ups, /kb add with attachment options, autocomplete of knowledge-base names, and
// an expired token answered in the channel.

const admin = discordUser('admin', { globalName: 'แอดมิน' });
const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const guilds = [
  {
    id: '700000000000000001',
    name: 'ทีมแสง',
    roles: [{ name: 'ผู้ดูแล', permissions: PermissionFlagsBits.ManageGuild }],
    members: [{ user: admin, roles: ['ผู้ดูแล'] }, { user: somchai }],
  },
];

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const general = (current: DiscordHarness) => current.discord.channel('general').id;

describe('Discord slash commands', () => {
  it('registers the commands in the guilds of DISCORD_GUILD_IDS, /kb for Manage Server, descriptions in Thai', async () => {
    harness = await startDiscordHarness({ discord: { guilds }, environment: { DISCORD_GUILD_IDS: '700000000000000001' } });
    const commands = harness.discord.commands('700000000000000001') ?? [];
    expect(commands.map((command) => command.name)).toEqual([
      'help',
      'status',
      'reset',
      'whoami',
      'kb',
      'usage',
      'remind',
      'summary',
      'reminders',
      'web',
      'settings',
    ]);
    const kb = commands.find((command) => command.name === 'kb');
    expect(kb?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
    expect(kb?.description).toBe('จัดการคลังความรู้ของเซิร์ฟเวอร์ (ผู้ดูแล)');
    expect(kb?.description_localizations).toMatchObject({ 'en-US': "Manage the server's knowledge bases (admins)" });
    expect(kb?.options?.map((option) => option.name)).toEqual(['list', 'create', 'add', 'docs', 'remove-doc', 'search', 'bind', 'unbind', 'info', 'delete']);
    // /usage: for admins, one optional period with fixed choices.
    const usage = commands.find((command) => command.name === 'usage');
    expect(usage?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
    const period = usage?.options?.[0];
    expect(period && 'choices' in period ? period.choices?.map((choice) => choice.value) : undefined).toEqual(['today', '7d', '30d']);
    // /remind: for everyone, add/list/cancel.
    const remind = commands.find((command) => command.name === 'remind');
    expect(remind?.default_member_permissions ?? null).toBeNull();
    expect(remind?.options?.map((option) => option.name)).toEqual(['add', 'list', 'cancel']);
    // /summary: for everyone (on/off is checked by the command), one optional span in words.
    const summary = commands.find((command) => command.name === 'summary');
    expect(summary?.default_member_permissions ?? null).toBeNull();
    expect(summary?.options?.map((option) => [option.name, option.required ?? false])).toEqual([['span', false]]);
    // /web: for admins, answered privately (ephemeral); the link itself only ever in a direct message.
    const web = commands.find((command) => command.name === 'web');
    expect(web?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
    expect(harness.discord.commands()).toBeUndefined();
  });

  it('registers globally without DISCORD_GUILD_IDS, with /research when search is configured', async () => {
    harness = await startDiscordHarness({ discord: { guilds }, environment: { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: 'http://127.0.0.1:9' } });
    expect(harness.discord.commands()?.map((command) => command.name)).toEqual([
      'help',
      'status',
      'reset',
      'whoami',
      'research',
      'kb',
      'usage',
      'remind',
      'summary',
      'reminders',
      'web',
      'settings',
    ]);
  });

  it('defers /status publicly and edits the deferred reply into the answer', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    await harness.interact({ commandName: 'status', channelId: general(harness), user: somchai });
    const callback = harness.discord.callsOf('POST /interactions/:id/:token/callback')[0];
    expect(callback?.body).toEqual({ type: 5, data: { flags: 0 } });
    const [reply] = harness.discord.sentMessages(general(harness));
    expect(reply?.content).toContain('สถานะของบอท');
    expect(reply?.flags ?? 0).toBe(0);
  });

  it('runs /kb for Manage Server privately, refuses a member, and autocompletes knowledge-base names', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord } = harness;
    const channelId = general(harness);
    await harness.interact({
      commandName: 'kb',
      channelId,
      user: admin,
      options: [commandOption.subcommand('create', [commandOption.string('name', 'คู่มือพนักงาน')])],
    });
    const created = discord.sentMessages(channelId).at(-1);
    expect(created?.content).toContain('คู่มือพนักงาน');
    expect(created?.flags).toBe(MessageFlags.Ephemeral);

    await harness.interact({ commandName: 'kb', channelId, user: somchai, options: [commandOption.subcommand('list')] });
    expect(discord.sentMessages(channelId).at(-1)?.content).toMatch(/ผู้ดูแล/);

    const asked = await harness.interact({
      commandName: 'kb',
      channelId,
      user: admin,
      autocomplete: true,
      options: [commandOption.subcommand('docs', [commandOption.string('kb', 'คู่มือ', true)])],
    });
    await discord.waitForCall('POST /interactions/:id/:token/callback', (call) => call.path.includes(asked.id));
    const answered = discord.callsOf('POST /interactions/:id/:token/callback').find((call) => call.path.includes(asked.id));
    expect(answered?.body).toEqual({ type: 8, data: { choices: [{ name: 'คู่มือพนักงาน', value: 'คู่มือพนักงาน' }] } });

    const refused = await harness.interact({
      commandName: 'kb',
      channelId,
      user: somchai,
      autocomplete: true,
      options: [commandOption.subcommand('docs', [commandOption.string('kb', '', true)])],
    });
    await discord.waitForCall('POST /interactions/:id/:token/callback', (call) => call.path.includes(refused.id));
    expect(discord.callsOf('POST /interactions/:id/:token/callback').find((call) => call.path.includes(refused.id))?.body).toEqual({
      type: 8,
      data: { choices: [] },
    });
  });

  it('adds the files of /kb add, several at once, to the knowledge base', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, test } = harness;
    const channelId = general(harness);
    await harness.interact({ commandName: 'kb', channelId, user: admin, options: [commandOption.subcommand('create', [commandOption.string('name', 'คู่มือ')])] });
    const first = discord.addAttachment(Buffer.from('ร้านเปิดทุกวัน เวลา 08:00 ถึง 20:00 น.'), { name: 'hours.txt', contentType: 'text/plain; charset=utf-8' });
    const second = discord.addAttachment(Buffer.from('# ที่จอดรถ\nจอดได้ที่ชั้นใต้ดิน'), { name: 'parking.md', contentType: 'text/markdown' });
    await harness.interact({
      commandName: 'kb',
      channelId,
      user: admin,
      attachments: [first, second],
      options: [
        commandOption.subcommand('add', [
          commandOption.string('kb', 'คู่มือ'),
          commandOption.attachment('file', first),
          commandOption.attachment('file2', second),
        ]),
      ],
    });
    const [knowledgeBase] = await test.app.knowledge.listKnowledgeBases({ spaceKey: 'discord:700000000000000001' });
    const documents = await test.app.knowledge.documents(knowledgeBase?.id ?? '');
    expect(documents.map((document) => document.sourceName).sort()).toEqual(['hours.txt', 'parking.md']);
  });

  it('answers in the channel when the interaction token no longer works', async () => {
    harness = await startDiscordHarness({ discord: { guilds, interactionTokenLifetimeMs: 0 } });
    const { discord } = harness;
    const channelId = general(harness);
    await harness.interact({ commandName: 'help', channelId, user: somchai });
    expect(discord.callsOf(`PATCH /webhooks/${discord.applicationId}/*/messages/@original`)[0]?.outcome).toMatchObject({ status: 401 });
    const posted = discord.callsOf('POST /channels/*/messages');
    expect(posted).toHaveLength(1);
    expect(String((posted[0]?.body as { content?: string } | undefined)?.content)).toContain('/kb');
    expect(harness.adapterLog.map((record) => record.msg)).toContain('discord interaction token gone: answering in the channel');
  });
});
