import { PermissionFlagsBits, type APIUser } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SpaceSettingsStore } from '../../../src/settings/space-settings-store.js';
import { sessionCookie } from '../../../src/web/admin-site.js';
import { discordUser } from '../../fakes/discord/index.js';
import { openWebLink, serveAdminSite, webLinkPattern } from '../../support/admin-site.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// `/web` through real discord.js on the fake: a server's admin (Manage Server) asks in a channel, as a slash command
// or typed; the one-time link goes to their direct messages (no embed preview), never into the channel, and opens a
// session scoped to that server. A member without Manage Server is refused. Each change the page makes is checked
// with Discord again (the member's roles, the server's role permissions): one whose role was taken is refused.

const admin = discordUser('admin', { globalName: 'แอดมิน' });
const secondAdmin = discordUser('second', { globalName: 'รองแอดมิน' });
const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const guildId = '700000000000000001';
const guilds = [
  {
    id: guildId,
    name: 'ทีมแสง',
    roles: [{ name: 'ผู้ดูแล', permissions: PermissionFlagsBits.ManageGuild }],
    members: [{ user: admin, roles: ['ผู้ดูแล'] }, { user: secondAdmin, roles: ['ผู้ดูแล'] }, { user: somchai }],
  },
];

let harness: DiscordHarness | undefined;
let site: { baseUrl: string; close(): Promise<void> } | undefined;
afterEach(async () => {
  await site?.close();
  await harness?.close();
  harness = undefined;
  site = undefined;
});

/** Starts the bot and its admin page, with the page's re-check asking the Discord adapter as src/service.ts wires it. */
async function start(): Promise<{ harness: DiscordHarness; baseUrl: string }> {
  const started = await startDiscordHarness({ discord: { guilds } });
  harness = started;
  const served = await serveAdminSite(started.test.app, {
    stillSpaceAdmin: async (adminId, spaceKey) => started.adapter.isSpaceAdmin?.(spaceKey, adminId.slice('discord:'.length)),
  });
  site = served;
  return { harness: started, baseUrl: served.baseUrl };
}

/** `/web` as a slash command in #general, the link from the user's DMs opened: the session's cookie and CSRF token. */
async function signIn(running: DiscordHarness, user: APIUser): Promise<{ origin: string; cookie: string; csrf: string }> {
  await running.interact({ commandName: 'web', channelId: running.discord.channel('general').id, user });
  const link = webLinkPattern.exec(running.discord.sentMessages(running.discord.dmChannel(user).id).at(-1)?.content ?? '')?.[0] ?? '';
  const { origin, cookie } = await openWebLink(link);
  const session = await running.test.app.web.sessions.sessionOf(cookie.slice(sessionCookie.length + 1));
  return { origin, cookie, csrf: session?.csrfToken ?? '' };
}

describe('Discord /web', () => {
  it('sends a server admin’s link to their direct messages, scoped to the server, and none into the channel', async () => {
    const { harness: running } = await start();
    const general = running.discord.channel('general').id;
    const { origin, cookie } = await signIn(running, admin);
    expect(running.discord.sentMessages(general).at(-1)?.content).toContain('ส่งลิงก์เข้าหน้าผู้ดูแลไปทางแชทส่วนตัวแล้ว');
    expect(running.sentContents(general).join('\n')).not.toMatch(/admin\/login/);
    const sent = running.discord.sentMessages(running.discord.dmChannel(admin).id).at(-1);
    expect(sent?.content).toContain(`กลุ่มนี้: discord:${guildId}`);
    expect((sent?.flags ?? 0) & 4).toBe(4);
    expect(await (await fetch(`${origin}/admin`, { headers: { cookie } })).text()).toContain('ผู้ดูแลกลุ่ม (1 กลุ่ม)');
  });

  it('asks Discord again before a change: a server admin still with Manage Server changes a setting, one whose role was taken cannot', async () => {
    const { harness: running } = await start();
    const space = `discord:${guildId}`;
    const settings = new SpaceSettingsStore(running.test.app.storage.settings);
    const change = (signedIn: { origin: string; cookie: string; csrf: string }, value: string) =>
      fetch(`${signedIn.origin}/admin/groups/${encodeURIComponent(space)}/settings`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: signedIn.origin, 'sec-fetch-site': 'same-origin', cookie: signedIn.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf: signedIn.csrf, setting: 'language', value }).toString(),
      });
    const first = await signIn(running, admin);
    const second = await signIn(running, secondAdmin);
    const member = running.discord.guilds[0]?.members.find((each) => each.user.id === secondAdmin.id);
    if (member) member.roles = []; // demoted in Discord after signing in
    expect((await change(second, 'en')).status).toBe(403);
    expect(await settings.get(space)).toEqual({});
    expect((await change(first, 'en')).status).toBe(303);
    expect(await settings.get(space)).toMatchObject({ language: 'en' });
    expect(running.discord.callsOf('GET /guilds/*/members/*').length).toBe(2);
  });

  it('refuses a member without Manage Server, and sends nothing privately', async () => {
    const { harness: running } = await start();
    const general = running.discord.channel('general').id;
    await running.deliver({ channelId: general, author: somchai, content: `<@${running.discord.botUser.id}> /web` });
    expect(running.discord.sentMessages(general).at(-1)?.content).toContain('/web ใช้ได้เฉพาะผู้ดูแลระบบของบอท');
    expect(running.discord.sentMessages(running.discord.dmChannel(somchai).id)).toEqual([]);
  });
});
