import { MessageFlags, StickerFormatType } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser } from '../../fakes/discord/index.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// Stickers and voice messages through real discord.js on the fake gateway and the real app: sent to the bot (a
// sticker with its mention, a voice message in a DM) they are answered with what the bot can read; a sticker to
// nobody in a channel is not.

const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const guilds = [{ name: 'ทีมแสง', channels: [{ name: 'general' }], members: [{ user: somchai }] }];
const sticker = { id: '1600000000000000001', name: 'wave', format_type: StickerFormatType.PNG };

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Discord messages the bot cannot read', () => {
  it('answers a sticker that mentions the bot with the Thai line, and leaves one to nobody unanswered', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord } = harness;
    const general = discord.channel('general').id;
    await harness.deliver({ channelId: general, author: somchai, stickers: [sticker] });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}>`, stickers: [sticker] });
    expect(harness.sentContents(general)).toEqual([expect.stringMatching(/^ขออภัย แสงยังดูสติกเกอร์ไม่ได้ครับ /)]);
    expect(harness.handled.map((handled) => handled.admission)).toEqual([
      { kind: 'ignore', reason: 'empty' },
      { kind: 'unreadable', reason: 'mention', what: 'sticker' },
    ]);
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it('answers a voice message in a DM in English under BOT_LANGUAGE=en', async () => {
    harness = await startDiscordHarness({ discord: { guilds }, environment: { BOT_LANGUAGE: 'en' } });
    const { discord } = harness;
    const dm = discord.dmChannel(somchai).id;
    const recording = discord.addAttachment(Buffer.from('OggS'), {
      name: 'voice-message.ogg',
      contentType: 'audio/ogg',
      voice: { durationSecs: 2.5, waveform: 'AAECAwQF' },
    });
    await harness.deliver({ channelId: dm, author: somchai, attachments: [recording], flags: MessageFlags.IsVoiceMessage });
    expect(harness.sentContents(dm)).toEqual([expect.stringMatching(/^Sorry, I cannot listen to voice messages yet\. /)]);
  });
});
