import type { APIMessage } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { discordUser } from '../../fakes/discord/index.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// A mention in reply to someone's message on Discord: the referenced message (sent with the reply by the gateway,
// cached by discord.js) reaches the model as quoted material after the question, its text document read too.

const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const somsri = discordUser('somsri', { globalName: 'สมศรี' });
const guilds = [{ name: 'ทีมแสง', channels: [{ name: 'general' }], members: [{ user: somchai }, { user: somsri }] }];

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Discord: the message a question replies to', () => {
  it('reads the replied message and its text file, after the question, with its author', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    const file = discord.addAttachment(Buffer.from('วาระ: งบประมาณไตรมาสสี่ และทริปบริษัท\n'), {
      name: 'agenda.txt',
      contentType: 'text/plain; charset=utf-8',
      channelId: general,
    });
    const chatter = await harness.deliver({ channelId: general, author: somsri, content: 'The meeting is moved to 2 pm tomorrow.', attachments: [file] });
    model.script({ text: 'ประชุมเลื่อนเป็นบ่ายสองพรุ่งนี้ครับ' });
    await harness.deliver({
      channelId: general,
      author: somchai,
      content: `<@${discord.botUser.id}> แปลข้อความนี้หน่อย`,
      replyTo: chatter as unknown as APIMessage,
    });
    const content = JSON.stringify(newestUserContent(model.chatRequests[0]));
    expect(content).toContain('แปลข้อความนี้หน่อย');
    expect(content).toContain('ข้อความที่ผู้ใช้ตอบกลับ (ของ สมศรี)');
    expect(content).toContain('The meeting is moved to 2 pm tomorrow.');
    expect(content).toContain('งบประมาณไตรมาสสี่');
    expect(harness.sentContents(general)).toEqual(['ประชุมเลื่อนเป็นบ่ายสองพรุ่งนี้ครับ']);
  });
});
