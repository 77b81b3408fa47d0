import { PermissionFlagsBits, REST } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerAdminStatus } from '../../../adapters/discord/server-admin-status.js';
import { silentLogger } from '../../../src/shared/log.js';
import { discordUser, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';

// Whether someone may manage a server now, asked of the fake Discord's REST routes through discord.js's own REST
// client: the owner, a Manage Server role and an Administrator role may; a member without them, one who left, or an
// answer that cannot be read may not. A demotion counts once the cached answer expires; a failed call is not cached.

const owner = discordUser('owner');
const manager = discordUser('manager');
const administrator = discordUser('administrator');
const somchai = discordUser('somchai');

let fake: FakeDiscord | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setUp() {
  fake = await startFakeDiscord({
    guilds: [
      {
        ownerId: owner.id,
        roles: [
          { name: 'ผู้ดูแล', permissions: PermissionFlagsBits.ManageGuild },
          { name: 'แอดมิน', permissions: PermissionFlagsBits.Administrator },
          { name: 'สมาชิก', permissions: PermissionFlagsBits.SendMessages },
        ],
        members: [{ user: owner }, { user: manager, roles: ['ผู้ดูแล'] }, { user: administrator, roles: ['แอดมิน'] }, { user: somchai, roles: ['สมาชิก'] }],
      },
    ],
  });
  let now = 1_000_000;
  const status = new ServerAdminStatus({
    rest: new REST({ api: fake.apiUrl, retries: 0 }).setToken(fake.token),
    logger: silentLogger(),
    ttlMs: 60_000,
    now: () => now,
  });
  const guild = fake.guilds[0];
  if (!guild) throw new Error('no guild');
  return { fake, status, guild, advance: (ms: number) => void (now += ms) };
}

describe('ServerAdminStatus', () => {
  it('counts the owner, Manage Server and Administrator, and no one else', async () => {
    const { status, guild } = await setUp();
    expect(await status.managesServer(guild.id, owner.id)).toBe(true);
    expect(await status.managesServer(guild.id, manager.id)).toBe(true);
    expect(await status.managesServer(guild.id, administrator.id)).toBe(true);
    expect(await status.managesServer(guild.id, somchai.id)).toBe(false);
    expect(await status.managesServer(guild.id, '123456789012345678')).toBe(false); // never a member
    expect(await status.managesServer('not-a-guild', owner.id)).toBe(false);
  });

  it('counts a demotion once the cached answer expires, and a member who left', async () => {
    const { fake, status, guild, advance } = await setUp();
    expect(await status.managesServer(guild.id, manager.id)).toBe(true);
    const member = guild.members.find((each) => each.user.id === manager.id);
    if (member) member.roles = [];
    expect(await status.managesServer(guild.id, manager.id)).toBe(true); // within the minute: one call per page of changes
    advance(60_001);
    expect(await status.managesServer(guild.id, manager.id)).toBe(false);
    guild.members.splice(
      guild.members.findIndex((each) => each.user.id === administrator.id),
      1,
    );
    expect(await status.managesServer(guild.id, administrator.id)).toBe(false);
    expect(fake.callsOf('GET /guilds/*/members/*').map((call) => (call.outcome && 'status' in call.outcome ? call.outcome.status : undefined))).toEqual([
      200, 200, 404,
    ]);
  });

  it('refuses when Discord fails or answers something unreadable, and asks again next time', async () => {
    const { fake, status, guild } = await setUp();
    fake.failNext('GET /guilds/*/members/*', { status: 403, body: { code: 50001, message: 'Missing Access' } });
    expect(await status.managesServer(guild.id, manager.id)).toBe(false);
    fake.failNext('GET /guilds/*', { status: 200, body: { id: guild.id, roles: [{ id: guild.id, permissions: 'all of them' }] } });
    expect(await status.managesServer(guild.id, manager.id)).toBe(false);
    fake.failNext('GET /guilds/*/members/*', { status: 200, body: { roles: 'ผู้ดูแล' } });
    expect(await status.managesServer(guild.id, manager.id)).toBe(false);
    expect(await status.managesServer(guild.id, manager.id)).toBe(true);
  });
});
