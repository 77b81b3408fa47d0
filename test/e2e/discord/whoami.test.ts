import { MessageFlags, PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser } from '../../fakes/discord/index.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// /whoami through real discord.js on the fake: as a slash command it is answered to the caller alone (ephemeral),
// typed in a DM it is answered there; the id is the user's snowflake in the form ADMIN_IDS takes.

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

/** As Discord shows it: the renderer escapes Markdown characters such as the `_` of ADMIN_IDS outside code. */
const shown = (content: string | undefined): string => (content ?? '').replaceAll('\\_', '_');

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Discord /whoami', () => {
  it('answers the slash command privately with the id, the channel, the server and both admin answers', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const channelId = harness.discord.channel('general').id;
    await harness.interact({ commandName: 'whoami', channelId, user: admin });
    const reply = harness.discord.sentMessages(channelId).at(-1);
    expect(reply?.flags).toBe(MessageFlags.Ephemeral);
    const content = shown(reply?.content);
    expect(content).toContain(`รหัสของคุณ (ใส่ใน ADMIN_IDS ได้ตามนี้): \`discord:${admin.id}\``);
    expect(content).toContain('แพลตฟอร์ม: Discord');
    expect(content).toContain(`ห้องสนทนานี้: \`discord:${channelId}\``);
    expect(content).toContain(`กลุ่ม/เซิร์ฟเวอร์: \`discord:${guildId}\``);
    expect(content).toContain('ผู้ดูแลระบบของบอท (ADMIN_IDS): ไม่ใช่');
    expect(content).toContain('ผู้ดูแลกลุ่มนี้: ใช่');
  });

  it('answers a typed /whoami in a DM, in English, for a bot admin', async () => {
    harness = await startDiscordHarness({ discord: { guilds }, environment: { ADMIN_IDS: `discord:${somchai.id}`, BOT_LANGUAGE: 'en' } });
    const dm = harness.discord.dmChannel(somchai).id;
    await harness.deliver({ channelId: dm, author: somchai, content: '/whoami' });
    const answer = shown(harness.discord.sentMessages(dm).at(-1)?.content);
    expect(answer).toContain(`Your id (as ADMIN_IDS takes it): \`discord:${somchai.id}\``);
    expect(answer).toContain('Bot admin (ADMIN_IDS): yes');
    expect(answer).not.toContain('Admin of this group');
    expect(answer).not.toContain('Group/server');
  });
});
