import { SnowflakeUtil } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { discordUser } from '../../fakes/discord/index.js';
import { longThaiText } from '../../support/long-thai-text.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// Messages through real discord.js on the fake gateway, answered by the real app: who is addressed (the bot's
// mention, its managed role, a reply to it with the ping off, a DM — not @everyone, not chatter), the mention
// stripped from what the model reads, answers as replies that ping nobody, long answers in valid parts, threads
// as conversations of their own.

const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const guilds = [{ name: 'ทีมแสง', channels: [{ name: 'general' }], threads: [{ name: 'งานเลี้ยง', parent: 'general' }], members: [{ user: somchai }] }];

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Discord messages', () => {
  it('answers a mention as a reply that pings nobody, the mention out of what the model reads', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    model.script({ text: 'สวัสดีครับ @everyone **สมชาย**' });
    // A snowflake of now: discord.js reads a message's time from its id (an old one would be a missed message).
    const id = SnowflakeUtil.generate().toString();
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}> สวัสดี`, id });
    expect(newestUserContent(model.chatRequests[0])).toContain('สวัสดี');
    expect(JSON.stringify(model.chatRequests[0])).not.toContain(`<@${discord.botUser.id}>`);
    const [answer] = discord.sentMessages(general);
    expect(answer?.content).toBe('สวัสดีครับ @everyone **สมชาย**');
    expect(answer?.mention_everyone).toBe(false);
    const call = discord.callsOf('POST /channels/*/messages').at(-1);
    expect(call?.body).toMatchObject({ allowed_mentions: { parse: [], replied_user: false }, message_reference: { fail_if_not_exists: false } });
    expect(answer?.message_reference?.message_id).toBe(id);
  });

  it('ignores chatter and @everyone, answers the managed role, a reply with the ping off, and a DM', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    await harness.deliver({ channelId: general, author: somchai, content: 'ใครไปกินข้าวบ้าง' });
    await harness.deliver({ channelId: general, author: somchai, content: '@everyone ประชุมบ่ายนี้' });
    expect(harness.handled.map((handled) => handled.admission.kind)).toEqual(['ignore', 'ignore']);
    expect(model.chatRequests).toHaveLength(0);

    model.script({ text: 'ตอบตามบทบาท' }, { text: 'ตอบคำตอบก่อนหน้า' }, { text: 'ตอบในแชตส่วนตัว' });
    await harness.deliver({ channelId: general, author: somchai, content: `<@&${discord.guilds[0]?.botRole.id ?? ''}> ช่วยหน่อย` });
    const [first] = discord.sentMessages(general);
    if (!first) throw new Error('no answer to the role mention');
    await harness.deliver({ channelId: general, author: somchai, content: 'แล้วอีกเรื่องล่ะ', replyTo: first, replyPing: false });
    const dm = discord.dmChannel(somchai).id;
    await harness.deliver({ channelId: dm, author: somchai, content: 'ถามเป็นการส่วนตัว' });
    expect(harness.sentContents(general)).toEqual(['ตอบตามบทบาท', 'ตอบคำตอบก่อนหน้า']);
    expect(harness.sentContents(dm)).toEqual(['ตอบในแชตส่วนตัว']);
    expect(newestUserContent(model.chatRequests[0])).not.toContain('<@&');
    // A DM gets no reply quote.
    expect(discord.sentMessages(dm)[0]?.message_reference).toBeUndefined();
  });

  it('keeps a thread its own conversation, apart from its channel', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    model.script({ text: 'ในเธรด' }, { text: 'ในห้องหลัก' });
    const thread = discord.channel('งานเลี้ยง').id;
    await harness.deliver({ channelId: thread, author: somchai, content: `<@${discord.botUser.id}> งานเริ่มกี่โมง` });
    await harness.deliver({ channelId: discord.channel('general').id, author: somchai, content: `<@${discord.botUser.id}> มีอะไรใหม่` });
    // The second question's history does not hold the thread's exchange.
    expect(JSON.stringify(model.chatRequests[1])).not.toContain('งานเริ่มกี่โมง');
    expect(harness.sentContents(thread)).toEqual(['ในเธรด']);
  });

  it('splits a long answer into parts of at most 2,000 characters, code fences balanced in each', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const code = Array.from({ length: 60 }, (_, index) => `const line${index} = 'ค่าที่ ${index}';`).join('\n');
    model.script({ text: `${longThaiText(2_500)}\n\n\`\`\`ts\n${code}\n\`\`\`` });
    await harness.deliver({ channelId: discord.channel('general').id, author: somchai, content: `<@${discord.botUser.id}> อธิบายยาว ๆ` });
    const parts = harness.sentContents(discord.channel('general').id);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect([...part].length).toBeLessThanOrEqual(2000);
      expect((part.match(/```/g) ?? []).length % 2).toBe(0);
    }
  });

  it('keeps a file sent with only the mention for /kb add and says so, instead of silence', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const general = discord.channel('general').id;
    const manual = discord.addAttachment(Buffer.from('คู่มือพนักงาน'), { name: 'manual.txt', contentType: 'text/plain' });
    await harness.deliver({ channelId: general, author: somchai, content: `<@${discord.botUser.id}>`, attachments: [manual] });
    expect(harness.sentContents(general).at(-1)).toContain('ได้รับไฟล์ manual.txt แล้ว');
    expect(model.chatRequests).toHaveLength(0);
  });

  it('shows typing while the model works', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    model.script({ text: 'เสร็จแล้ว' });
    await harness.deliver({ channelId: discord.channel('general').id, author: somchai, content: `<@${discord.botUser.id}> คิดหน่อย` });
    const typing = discord.callsOf('POST /channels/*/typing');
    expect(typing.length).toBeGreaterThan(0);
    expect(typing[0]?.sequence).toBeLessThan(discord.callsOf('POST /channels/*/messages')[0]?.sequence ?? 0);
  });
});
