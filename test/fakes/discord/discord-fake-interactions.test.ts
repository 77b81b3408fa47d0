import { DiscordAPIError, Events, MessageFlags, PermissionFlagsBits, Routes, SlashCommandBuilder, type ChatInputCommandInteraction } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { commandOption, discordUser } from './index.js';
import { createHarnessFactory, nextEvent } from './test-client.js';

// Slash commands end to end under real discord.js: registration, the interaction callback with its deadline and single
// acknowledgement, the webhook routes of the interaction token, attachment options and autocomplete.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const setUp = createHarnessFactory(cleanups);

const admin = discordUser('admin', { globalName: 'แอดมิน' });
const somchai = discordUser('somchai');
const guildSpec = {
  roles: [{ name: 'ผู้ดูแล', permissions: PermissionFlagsBits.ManageGuild }],
  members: [{ user: admin, roles: ['ผู้ดูแล'] }, { user: somchai }],
  ownerId: '900000000000000001',
};

async function command(setUpResult: Awaited<ReturnType<typeof setUp>>, spec: Omit<Parameters<typeof setUpResult.fake.dispatchInteraction>[0], 'channelId'>) {
  const { fake, client } = setUpResult;
  const arrived = nextEvent(client, Events.InteractionCreate);
  const dispatched = await fake.dispatchInteraction({ channelId: fake.channel('general').id, ...spec });
  return { dispatched, interaction: (await arrived)[0] };
}

describe('fake Discord interactions under real discord.js', () => {
  it('records a bulk overwrite of guild and global commands and answers with ids', async () => {
    const { fake, client } = await setUp({ guilds: [guildSpec] });
    const kb = new SlashCommandBuilder()
      .setName('kb')
      .setDescription('คลังความรู้')
      .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
      .addSubcommand((sub) =>
        sub
          .setName('add')
          .setDescription('เพิ่มไฟล์')
          .addAttachmentOption((option) => option.setName('file').setDescription('ไฟล์').setRequired(true)),
      );
    const guildId = fake.guilds[0]?.id ?? '';
    const registered = await client.application!.commands.set([kb.toJSON()], guildId);
    expect(registered.first()?.name).toBe('kb');
    expect(fake.commands(guildId)?.[0]).toMatchObject({
      name: 'kb',
      default_member_permissions: '32',
      guild_id: guildId,
      options: [{ type: 1, name: 'add', options: [{ type: 11, name: 'file' }] }],
    });
    await client.application!.commands.set([{ name: 'status', description: 'สถานะ' }]);
    expect(fake.commands()?.map((each) => each.name)).toEqual(['status']);
    await expect(client.application!.commands.set([{ name: 'Bad Name', description: 'x' }])).rejects.toMatchObject({ code: 50035 });
  });

  it('defers then edits the reply: callback without Authorization, PATCH @original, the message as edited', async () => {
    const harness = await setUp({ guilds: [guildSpec] });
    const { fake } = harness;
    const { interaction } = await command(harness, { commandName: 'ask', user: admin, options: [commandOption.string('q', 'ราคาทอง')] });
    if (!interaction.isChatInputCommand()) throw new Error('expected a chat-input command');
    expect([interaction.options.getString('q'), interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild), interaction.inGuild()]).toEqual([
      'ราคาทอง',
      true,
      true,
    ]);
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const callback = await fake.waitForCall('POST /interactions/:id/:token/callback');
    expect([callback.auth, callback.query, callback.body, callback.outcome]).toEqual([
      'missing',
      { with_response: 'false' },
      { type: 5, data: { flags: 64 } },
      { status: 204 },
    ]);
    const edited = await interaction.editReply('คำตอบ');
    expect(edited.content).toBe('คำตอบ');
    expect(fake.callsOf(`PATCH /webhooks/${fake.applicationId}/*/messages/@original`)).toHaveLength(1);
    const [original] = fake.sentMessages(fake.channel('general').id);
    expect([original?.content, original?.flags, original?.interaction_metadata?.id]).toEqual(['คำตอบ', MessageFlags.Ephemeral, interaction.id]);
    const followUp = await interaction.followUp('ต่อ');
    expect([followUp.content, fake.callsOf('POST /webhooks/*/*')[0]?.query]).toEqual(['ต่อ', { wait: 'true' }]);
  });

  it('refuses a second acknowledgement with 40060 and a late one with 10062; the token then expires with 50027', async () => {
    const harness = await setUp({ guilds: [guildSpec] });
    const { fake, client } = harness;
    const { interaction } = await command(harness, { commandName: 'ask', user: somchai });
    await (interaction as ChatInputCommandInteraction).reply('ได้เลย');
    const again = await client.rest
      .post(Routes.interactionCallback(interaction.id, interaction.token), { body: { type: 5 }, auth: false })
      .catch((error: unknown) => error);
    if (!(again instanceof DiscordAPIError)) throw new Error('expected a DiscordAPIError');
    expect([again.status, again.code, again.message]).toEqual([400, 40060, 'Interaction has already been acknowledged']);
    const late = await command(harness, { commandName: 'ask', user: somchai });
    fake.expireInteraction(late.interaction.id);
    await expect((late.interaction as ChatInputCommandInteraction).deferReply()).rejects.toMatchObject({
      status: 404,
      code: 10062,
      message: 'Unknown interaction',
    });
    fake.expireInteractionToken(interaction.id);
    await expect((interaction as ChatInputCommandInteraction).editReply('สาย')).rejects.toMatchObject({ status: 401, code: 50027 });
  });

  it('resolves an attachment option, answers with_response, and records autocomplete choices (callback type 8)', async () => {
    const harness = await setUp({ guilds: [guildSpec] });
    const { fake } = harness;
    const file = fake.addAttachment(Buffer.from('# คู่มือ\n'), { name: 'guide.md', contentType: 'text/markdown; charset=utf-8' });
    const { interaction } = await command(harness, {
      commandName: 'kb',
      user: admin,
      options: [commandOption.subcommand('add', [commandOption.attachment('file', file)])],
      attachments: [file],
    });
    if (!interaction.isChatInputCommand()) throw new Error('expected a chat-input command');
    expect(interaction.options.getSubcommand()).toBe('add');
    const attachment = interaction.options.getAttachment('file', true);
    expect([attachment.name, attachment.size, attachment.contentType]).toEqual(['guide.md', Buffer.byteLength('# คู่มือ\n'), 'text/markdown; charset=utf-8']);
    expect(await (await fetch(attachment.url)).text()).toBe('# คู่มือ\n');
    const response = await interaction.deferReply({ withResponse: true });
    expect([response.interaction.id, response.resource?.message?.id]).toEqual([interaction.id, fake.sentMessages()[0]?.id]);
    const suggest = await command(harness, { commandName: 'kb', user: admin, autocomplete: true, options: [commandOption.string('name', 'คู่', true)] });
    if (!suggest.interaction.isAutocomplete()) throw new Error('expected autocomplete');
    expect(suggest.interaction.options.getFocused()).toBe('คู่');
    await suggest.interaction.respond([{ name: 'คู่มือ', value: 'guide' }]);
    const recorded = fake.interaction(suggest.interaction.id)?.acknowledgement;
    expect(recorded).toEqual({ type: 8, data: { choices: [{ name: 'คู่มือ', value: 'guide' }] } });
  });
});
