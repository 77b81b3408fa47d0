import { GatewayIntentBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser, rateLimited } from '../../fakes/discord/index.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';
import { shadePng, shownShades } from '../../support/shade-images.js';

// Starting and failing as a user would meet it: the Message Content intent refused (4014), a bad token, a 429, a
// channel the bot may not post in, a dropped gateway connection, and an image sent before the mention.

const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const guilds = [{ name: 'ทีมแสง', channels: [{ name: 'general' }], members: [{ user: somchai }] }];
const messageContent = Number(GatewayIntentBits.MessageContent);

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const messagesOfLog = (current: DiscordHarness) => current.adapterLog.map((record) => record.msg);

describe('Discord start', () => {
  it('without the Message Content intent: one clear warning, connected without it, mentions still answered, /status says so', async () => {
    harness = await startDiscordHarness({ discord: { guilds, disallowedIntents: messageContent } });
    const { discord, model } = harness;
    const warnings = harness.adapterLog.filter((record) => record.warning === 'discord-message-content-intent');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toContain('Discord ปฏิเสธ Message Content intent');
    expect(warnings[0]?.msg).toContain('Privileged Gateway Intents');
    expect(discord.identifies.map((identify) => (Number(identify.intents) & messageContent) !== 0)).toEqual([true, false]);

    model.script({ text: 'ยังตอบได้ครับ' });
    const general = discord.channel('general').id;
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> ยังได้ยินไหม` });
    expect(harness.sentContents(general)).toEqual(['ยังตอบได้ครับ']);
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> /status` });
    expect(harness.sentContents(general).at(-1)).toContain('ในกลุ่ม บอทเห็นเฉพาะข้อความที่เรียกบอท');
  });

  it('fails fast with a clear message when the token is refused', async () => {
    await expect(startDiscordHarness({ discord: { guilds }, environment: { DISCORD_TOKEN: 'not-the-token' } })).rejects.toThrow(
      'DISCORD_TOKEN was refused by Discord (401)',
    );
  });
});

describe('Discord faults', () => {
  it('waits out a 429 (the library retries it) and logs the rate limit', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    discord.failNext('POST /channels/*/messages', rateLimited({ retryAfter: 0.05 }));
    model.script({ text: 'ตอบหลังรอ' });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> ลองดู` });
    expect(harness.sentContents(general)).toEqual(['ตอบหลังรอ']);
    expect(messagesOfLog(harness)).toContain('discord rate limit: waiting');
    expect(harness.deliveryEvents).toEqual(['rate-limited', 'retried', 'sent']);
  });

  it('sends again when the connection drops while posting (the library does not retry a dropped socket)', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    discord.disconnectNext('POST /channels/*/messages');
    model.script({ text: 'ส่งได้ในครั้งที่สอง' });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> ลองอีกที` });
    expect(harness.sentContents(general)).toEqual(['ส่งได้ในครั้งที่สอง']);
    expect(discord.callsOf('POST /channels/*/messages').map((call) => call.outcome)).toEqual([
      { disconnected: true },
      expect.objectContaining({ status: 200 }),
    ]);
    expect(harness.deliveryEvents).toEqual(['retried', 'sent']);
  });

  it('logs a channel it may not post in once, and tries once per question there, not in a loop', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    const missingPermissions = { status: 403, body: { code: 50013, message: 'Missing Permissions' } };
    discord.failNext('POST /channels/*/messages', missingPermissions, 2);
    model.script({ text: 'ไม่ได้ส่ง' }, { text: 'ไม่ได้ส่งอีก' });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> หนึ่ง` });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> สอง` });
    expect(discord.callsOf('POST /channels/*/messages')).toHaveLength(2);
    expect(messagesOfLog(harness).filter((message) => message.startsWith('discord: the bot may not post in this channel'))).toHaveLength(1);
  });

  it('resumes after the gateway drops the connection and answers what comes after', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    await discord.closeGateway(4000, 'test drop');
    await discord.waitForGatewayClose((close) => close.code === 4000);
    model.script({ text: 'กลับมาแล้ว' });
    const general = discord.channel('general').id;
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> ยังอยู่ไหม` });
    expect(harness.sentContents(general)).toEqual(['กลับมาแล้ว']);
  });

  it('joins an image sent before the mention to that question, fetched again by its message for a fresh link', async () => {
    harness = await startDiscordHarness({ discord: { guilds }, environment: { MODEL_VISION: 'on' } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    const picture = discord.addAttachment(await shadePng(120), { name: 'receipt.png', contentType: 'image/png' });
    await harness.deliver({ channelId: general, author: somchai, content: '', attachments: [picture] });
    discord.expireAttachment(picture.url);
    model.script({ text: 'ใบเสร็จร้านกาแฟ' });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> อ่านให้หน่อย` });
    expect(harness.sentContents(general)).toEqual(['ใบเสร็จร้านกาแฟ']);
    expect(await shownShades(model.chatRequests[0])).toEqual([120]);
    expect(discord.callsOf('GET /channels/*/messages/*')).toHaveLength(1);
  });
});
