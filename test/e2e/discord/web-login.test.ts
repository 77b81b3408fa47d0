import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser } from '../../fakes/discord/index.js';
import { serveAdminSite } from '../../support/admin-site.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// `/web` through real discord.js on the fake: a server's admin (Manage Server) asks in a channel, as a slash command
// or typed; the one-time link goes to their direct messages (no embed preview), never into the channel, and opens a
// session scoped to that server. A member without Manage Server is refused.

const admin = discordUser('admin', { globalName: 'แอดมิน' });
const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const guildId = '700000000000000001';
const guilds = [
  {
    id: guildId,
    name: 'ทีมแสง',
    roles: [{ name: 'ผู้ดูแล', permissions: PermissionFlagsBits.ManageGuild }],
    members: [{ user: admin, roles: ['ผู้ดูแล'] }, { user: somchai }],
  },
];
const linkPattern = /http:\/\/127\.0\.0\.1:\d{1,5}\/admin\/login\?t=[\w-]{43}/;

let harness: DiscordHarness | undefined;
let site: { baseUrl: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await site?.close();
  await harness?.close();
  harness = undefined;
  site = undefined;
});

describe('Discord /web', () => {
  it('sends a server admin’s link to their direct messages, scoped to the server, and none into the channel', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    site = await serveAdminSite(harness.test.app);
    const general = harness.discord.channel('general').id;
    await harness.interact({ commandName: 'web', channelId: general, user: admin });
    expect(harness.discord.sentMessages(general).at(-1)?.content).toContain('ส่งลิงก์เข้าหน้าผู้ดูแลไปทางแชทส่วนตัวแล้ว');
    expect(harness.sentContents(general).join('\n')).not.toMatch(/admin\/login/);
    const direct = harness.discord.dmChannel(admin).id;
    const sent = harness.discord.sentMessages(direct).at(-1);
    expect(sent?.content).toContain(`กลุ่มนี้: discord:${guildId}`);
    expect((sent?.flags ?? 0) & 4).toBe(4);
    const link = linkPattern.exec(sent?.content ?? '')?.[0] ?? '';
    const origin = new URL(link).origin;
    const opened = await fetch(`${origin}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: new URL(link).searchParams.get('t') ?? '' }).toString(),
    });
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(await (await fetch(`${origin}/admin`, { headers: { cookie } })).text()).toContain('ผู้ดูแลกลุ่ม (1 กลุ่ม)');
  });

  it('refuses a member without Manage Server, and sends nothing privately', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    site = await serveAdminSite(harness.test.app);
    const general = harness.discord.channel('general').id;
    await harness.deliver({ channelId: general, author: somchai, content: `<@${harness.discord.botUser.id}> /web` });
    expect(harness.discord.sentMessages(general).at(-1)?.content).toContain('/web ใช้ได้เฉพาะผู้ดูแลระบบของบอท');
    expect(harness.discord.sentMessages(harness.discord.dmChannel(somchai).id)).toEqual([]);
  });
});
