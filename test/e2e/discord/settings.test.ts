import { MessageFlags, PermissionFlagsBits, type APIApplicationCommandOption, type APIMessage } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { commandOption, discordUser } from '../../fakes/discord/index.js';
import { messagesOf, newestUserContent } from '../../fakes/recorded-messages.js';
import { startDiscordHarness, type DiscordHarness } from './discord-harness.js';

// /settings through real discord.js on the fake: registered as one slash command with a subcommand per topic and
// fixed choices, answered privately to a member with Manage Server, refused (in Thai) to anyone else; typed too.
// A server that turned streaming off gets its answers in one message, never edited; one that turned quotes off
// sends the model no quoted message.

const admin = discordUser('admin', { globalName: 'แอดมิน' });
const somchai = discordUser('somchai', { globalName: 'สมชาย' });
const somsri = discordUser('somsri', { globalName: 'สมศรี' });
const guildId = '700000000000000001';
const guilds = [
  {
    id: guildId,
    name: 'ทีมแสง',
    roles: [{ name: 'ผู้ดูแล', permissions: PermissionFlagsBits.ManageGuild }],
    members: [{ user: admin, roles: ['ผู้ดูแล'] }, { user: somchai }, { user: somsri }],
  },
];
const refusal = 'ขออภัยครับ คำสั่ง /settings ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น';
const answer =
  'ร้านของเราเปิดให้บริการทุกวันตั้งแต่ช่วงเช้าจนถึงช่วงค่ำครับ ลูกค้าสามารถแวะมาได้โดยไม่ต้องจองล่วงหน้า ' +
  'ถ้ามาช่วงบ่ายอาจต้องรอคิวสักครู่เพราะคนค่อนข้างเยอะ แนะนำให้มาช่วงเช้าจะสะดวกที่สุดครับ';

let harness: DiscordHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function current(): DiscordHarness {
  if (!harness) throw new Error('no harness');
  return harness;
}

const general = () => current().discord.channel('general').id;
const mention = (text: string) => `<@${current().discord.botUser.id}> ${text}`;
const lastContent = () => current().discord.sentMessages(general()).at(-1)?.content ?? '';
const systemPromptOf = (body: Record<string, unknown> | undefined) => String(messagesOf(body).find((message) => message.role === 'system')?.content ?? '');

/** `/settings <topic> <option>=<value>` as a slash command. */
async function slashSettings(user: typeof admin, topic: string, option?: [string, string]): Promise<{ id: string }> {
  return current().interact({
    commandName: 'settings',
    channelId: general(),
    user,
    options: [commandOption.subcommand(topic, option ? [commandOption.string(option[0], option[1])] : [])],
  });
}

/** The choice values of a subcommand's options. */
function choicesOf(subcommand: APIApplicationCommandOption | undefined): (string | number)[] {
  const options = subcommand && 'options' in subcommand ? (subcommand.options ?? []) : [];
  return options.flatMap((option: APIApplicationCommandOption) =>
    'choices' in option && option.choices ? option.choices.map((choice: { value: string | number }) => choice.value) : [],
  );
}

describe('Discord /settings', () => {
  it('is registered as one command with a subcommand per topic and choices for language, trigger, streaming and quotes', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const settings = harness.discord.commands()?.find((command) => command.name === 'settings');
    expect(settings?.default_member_permissions).toBe(String(PermissionFlagsBits.ManageGuild));
    const subcommands = settings?.options ?? [];
    expect(subcommands.map((option) => option.name)).toEqual([
      'show',
      'language',
      'trigger',
      'context',
      'quota',
      'streaming',
      'quotes',
      'instructions',
      'reset',
    ]);
    expect(subcommands.every((option) => option.type === 1)).toBe(true);
    const topic = (name: string) => subcommands.find((option) => option.name === name);
    expect(choicesOf(topic('language'))).toEqual(['th', 'en', 'follow', 'default']);
    expect(choicesOf(topic('trigger'))).toEqual(['mention', 'name', 'every-message', 'default']);
    expect(choicesOf(topic('streaming'))).toEqual(['on', 'off', 'default']);
    expect(choicesOf(topic('quotes'))).toEqual(['on', 'off', 'default']);
  });

  it('refuses a member without Manage Server in Thai, then applies language=en from one with it, privately', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;

    await slashSettings(somchai, 'quota', ['count', '3']);
    expect(lastContent()).toBe(refusal);
    await harness.deliver({ channelId: general(), author: somchai, content: mention('/settings language en') });
    expect(lastContent()).toBe(refusal);

    const asked = await slashSettings(admin, 'language', ['value', 'en']);
    const callback = discord.callsOf('POST /interactions/:id/:token/callback').find((call) => call.path.includes(asked.id));
    expect(callback?.body).toEqual({ type: 5, data: { flags: MessageFlags.Ephemeral } });
    const reply = discord.sentMessages(general()).at(-1);
    expect(reply?.flags).toBe(MessageFlags.Ephemeral);
    // Confirmed in the new language.
    expect(reply?.content).toContain('Saved.');
    expect(reply?.content).toMatch(/(Language: English|ภาษา: อังกฤษ)/);

    await slashSettings(admin, 'show');
    expect(lastContent()).toContain('Language: English');
    expect(lastContent()).toContain(`Last changed by \`discord:${admin.id}\``);

    model.script({ text: 'The shop is open every day, from morning until evening.' });
    await harness.deliver({ channelId: general(), author: somchai, content: mention('ร้านเปิดกี่โมง') });
    expect(lastContent()).toBe('The shop is open every day, from morning until evening.');
    expect(systemPromptOf(model.chatRequests.at(-1))).toMatch(/^You are "/);
    expect(model.unexpected).toEqual([]);
  });

  it('with streaming off, posts the answer once and never edits it', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { discord, model } = harness;
    const edits = () => discord.callsOf('PATCH /channels/*/messages/*').length;
    const posts = () => discord.callsOf('POST /channels/*/messages').length;

    // The bot-wide default (STREAM_PLATFORMS includes discord): a live message, completed by an edit.
    model.script({ text: answer, chunkSize: 3 });
    await harness.deliver({ channelId: general(), author: somchai, content: mention('ร้านเปิดกี่โมง') });
    expect(lastContent()).toBe(answer);
    expect(edits()).toBeGreaterThan(0);

    await slashSettings(admin, 'streaming', ['value', 'off']);
    expect(lastContent()).toMatch(/(แสดงคำตอบระหว่างเขียน: ปิด|Show answers while they are written: off)/);

    const [postsBefore, editsBefore] = [posts(), edits()];
    model.script({ text: answer, chunkSize: 3 });
    await harness.deliver({ channelId: general(), author: somchai, content: mention('แล้ววันอาทิตย์ล่ะ') });
    expect(lastContent()).toBe(answer);
    expect(posts()).toBe(postsBefore + 1);
    expect(edits()).toBe(editsBefore);
    expect(model.unexpected).toEqual([]);
  });

  it('with quotes off (typed), sends the model no quoted message for a reply to another member', async () => {
    harness = await startDiscordHarness({ discord: { guilds } });
    const { model } = harness;
    const chatter = await harness.deliver({ channelId: general(), author: somsri, content: 'ประชุมเลื่อนเป็นบ่ายสองพรุ่งนี้นะทุกคน' });
    const ask = () =>
      harness?.deliver({ channelId: general(), author: somchai, content: mention('ข้อความนี้หมายความว่าอะไร'), replyTo: chatter as unknown as APIMessage });

    model.script({ text: 'หมายถึงประชุมย้ายเวลาครับ' });
    await ask();
    expect(JSON.stringify(newestUserContent(model.chatRequests.at(-1)))).toContain('ข้อความที่ผู้ใช้ตอบกลับ (ของ สมศรี)');

    await harness.deliver({ channelId: general(), author: admin, content: mention('/settings quotes off') });
    expect(lastContent()).toContain('อ่านข้อความที่ผู้ถามตอบกลับ (อ้างอิง): ปิด');

    model.script({ text: 'ไม่แน่ใจว่าหมายถึงข้อความไหนครับ' });
    await ask();
    const content = JSON.stringify(newestUserContent(model.chatRequests.at(-1)));
    expect(content).toContain('ข้อความนี้หมายความว่าอะไร');
    expect(content).not.toContain('ข้อความที่ผู้ใช้ตอบกลับ');
    expect(model.unexpected).toEqual([]);
  });
});
