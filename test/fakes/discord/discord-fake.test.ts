import { ChannelType, DiscordAPIError, Events, type Message, type TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser, rateLimited, startFakeDiscord } from './index.js';
import { createHarnessFactory, newClient, nextEvent } from './test-client.js';

// The fake is only worth something if the real discord.js 14.28.1 cannot tell it from Discord: every test drives
// discord.js itself (its REST queue, gateway shard, caches and error class) against the fake.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const setUp = createHarnessFactory(cleanups);

const somchai = discordUser('somchai', { globalName: 'สมชาย' });

describe('fake Discord under real discord.js', () => {
  it('logs in: GET /gateway/bot, IDENTIFY with the intents, READY and GUILD_CREATE fill the caches', async () => {
    const { fake, client } = await setUp({
      guilds: [
        { name: 'ทีมแสง', channels: [{ name: 'general' }, { name: 'ถามตอบ' }], threads: [{ name: 'เธรด', parent: 'general' }], members: [{ user: somchai }] },
      ],
    });
    expect(client.user?.id).toBe(fake.botUser.id);
    expect(client.application?.id).toBe(fake.applicationId);
    expect(fake.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /gateway/bot']);
    expect(fake.calls[0]?.auth).toBe('bot');
    expect(fake.gatewayQueries).toEqual(['v=10&encoding=json']);
    expect(fake.identifies).toEqual([expect.objectContaining({ intents: 37377, tokenMatched: true, compress: false, shard: [0, 1] })]);
    const guild = client.guilds.cache.get(fake.guilds[0]?.id ?? '');
    expect(guild?.name).toBe('ทีมแสง');
    expect(guild?.channels.cache.map((channel) => channel.name).sort()).toEqual(['general', 'ถามตอบ', 'เธรด'].sort());
    expect(guild?.channels.cache.get(fake.channel('เธรด').id)?.type).toBe(ChannelType.PublicThread);
    expect(guild?.members.me?.roles.botRole?.id).toBe(fake.guilds[0]?.botRole.id);
  });

  it('delivers MESSAGE_CREATE with the mentions discord.js reads (user, managed role, @everyone, reply with the ping off)', async () => {
    const { fake, client } = await setUp({ guilds: [{ members: [{ user: somchai }] }] });
    const channelId = fake.channel('general').id;
    const botId = fake.botUser.id;
    const receive = async (spec: Omit<Parameters<typeof fake.dispatchMessage>[0], 'channelId' | 'author'>): Promise<Message> => {
      const arrived = nextEvent(client, Events.MessageCreate);
      await fake.dispatchMessage({ channelId, author: somchai, ...spec });
      return (await arrived)[0];
    };
    const direct = await receive({ content: `<@${botId}> สวัสดี` });
    expect([direct.content, direct.guildId, direct.author.id, direct.member?.id]).toEqual([`<@${botId}> สวัสดี`, fake.guilds[0]?.id, somchai.id, somchai.id]);
    expect([direct.mentions.has(client.user!), direct.mentions.users.has(botId)]).toEqual([true, true]);
    const byRole = await receive({ content: `<@&${fake.guilds[0]?.botRole.id}> ช่วยหน่อย` });
    expect([byRole.mentions.has(client.user!), byRole.mentions.users.has(botId), byRole.mentions.roles.has(fake.guilds[0]?.botRole.id ?? '')]).toEqual([
      true,
      false,
      true,
    ]);
    const everyone = await receive({ content: '@everyone ประชุม' });
    expect([everyone.mentions.everyone, everyone.mentions.has(client.user!), everyone.mentions.has(client.user!, { ignoreEveryone: true })]).toEqual([
      true,
      true,
      false,
    ]);
    const botMessage = await (client.channels.cache.get(channelId) as TextChannel).send('คำตอบแรก');
    const reply = await receive({ content: 'ต่อจากนี้', replyTo: fake.sentMessages(channelId)[0], replyPing: false });
    expect([reply.mentions.has(client.user!), reply.mentions.repliedUser?.id, reply.reference?.messageId]).toEqual([false, botId, botMessage.id]);
    const chatter = await receive({ content: 'คุยกันเอง' });
    expect(chatter.mentions.has(client.user!)).toBe(false);
  });

  it('delivers a DM through Partials.Channel, and blanks unmentioned guild messages without the MessageContent intent', async () => {
    const { fake, client } = await setUp({}, { intents: [1, 512, 4096] });
    const dm = fake.dmChannel(somchai);
    const arrivedDm = nextEvent(client, Events.MessageCreate);
    await fake.dispatchMessage({ channelId: dm.id, author: somchai, content: 'ส่วนตัว' });
    const [private_] = await arrivedDm;
    expect([private_.content, private_.channel.type, private_.guildId]).toEqual(['ส่วนตัว', ChannelType.DM, null]);
    const picture = fake.addAttachment(Buffer.from('png'), { name: 'a.png', contentType: 'image/png' });
    const arrived = nextEvent(client, Events.MessageCreate);
    const delivered = await fake.dispatchMessage({ channelId: fake.channel('general').id, author: somchai, content: 'ดูรูปนี้', attachments: [picture] });
    const [blank] = await arrived;
    expect([blank.content, blank.attachments.size, delivered?.content]).toEqual(['', 0, '']);
    const mentioned = nextEvent(client, Events.MessageCreate);
    await fake.dispatchMessage({ channelId: fake.channel('general').id, author: somchai, content: `<@${fake.botUser.id}> ดูรูปนี้`, attachments: [picture] });
    const [readable] = await mentioned;
    expect([readable.content.endsWith('ดูรูปนี้'), readable.attachments.first()?.contentType]).toEqual([true, 'image/png']);
  });

  it('rejects what Discord rejects: 2001 characters (50035), empty (50006), unknown channel (10003), unknown reply target', async () => {
    const { fake, client } = await setUp();
    const channel = client.channels.cache.get(fake.channel('general').id) as TextChannel;
    const tooLong = await channel.send('ก'.repeat(2001)).catch((error: unknown) => error);
    if (!(tooLong instanceof DiscordAPIError)) throw new Error('expected a DiscordAPIError');
    expect([tooLong.status, tooLong.code, tooLong.message]).toEqual([
      400,
      50035,
      'Invalid Form Body\ncontent[BASE_TYPE_MAX_LENGTH]: Must be 2000 or fewer in length.',
    ]);
    expect((await channel.send('ก'.repeat(2000))).content).toHaveLength(2000);
    await expect(channel.send({ content: '' })).rejects.toMatchObject({ code: 50006, message: 'Cannot send an empty message', status: 400 });
    await expect(client.rest.post('/channels/111111111111111111/messages', { body: { content: 'x' } })).rejects.toMatchObject({ code: 10003, status: 404 });
    const missing = { messageReference: '222222222222222222' };
    await expect(channel.send({ content: 'ตอบ', reply: missing })).rejects.toMatchObject({
      code: 50035,
      rawError: { errors: { message_reference: { _errors: [{ code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE' }] } } },
    });
    const tolerant = await channel.send({ content: 'ตอบ', reply: { ...missing, failIfNotExists: false } });
    expect([tolerant.reference, tolerant.type]).toEqual([null, 0]);
  });

  it('records a multipart send with the file bytes, serves the attachment from the CDN, and reflects edits', async () => {
    const { fake, client } = await setUp();
    const channel = client.channels.cache.get(fake.channel('general').id) as TextChannel;
    const bytes = Buffer.from('รายงาน\n', 'utf8');
    const sent = await channel.send({ content: 'ไฟล์', files: [{ attachment: bytes, name: 'report.txt' }], allowedMentions: { parse: [], repliedUser: false } });
    const call = fake.callsOf('POST /channels/:channel/messages')[0];
    expect(call?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(call?.files.map((file) => [file.field, file.name, file.size, file.bytes.equals(bytes)])).toEqual([['files[0]', 'report.txt', bytes.length, true]]);
    expect(call?.body).toMatchObject({ content: 'ไฟล์', allowed_mentions: { parse: [], replied_user: false }, attachments: [{ id: '0' }] });
    const attachment = sent.attachments.first();
    expect(attachment?.url).toMatch(/\/cdn\/attachments\/\d+\/\d+\/report\.txt\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]+&$/);
    expect(Buffer.from(await (await fetch(attachment?.url ?? '')).arrayBuffer()).equals(bytes)).toBe(true);
    expect((await fetch((attachment?.url ?? '').replace('hm=', 'hm=0'))).status).toBe(404);
    fake.expireAttachment(attachment?.url ?? '');
    expect((await fetch(attachment?.url ?? '')).status).toBe(404);
    await sent.edit('ไฟล์ (แก้แล้ว)');
    expect(fake.sentMessages(channel.id).map((message) => [message.content, message.attachments.length, message.edited_timestamp !== null])).toEqual([
      ['ไฟล์ (แก้แล้ว)', 1, true],
    ]);
  });

  it('lets @discordjs/rest retry a 429 after retry_after and emit rateLimited; typing answers 204', async () => {
    const { fake, client } = await setUp();
    const channel = client.channels.cache.get(fake.channel('general').id) as TextChannel;
    const limited = nextEvent(client.rest as never, 'rateLimited' as never) as unknown as Promise<[{ scope: string; route: string; global: boolean }]>;
    fake.failNext('POST /channels/*/messages', rateLimited({ retryAfter: 0.05 }));
    expect((await channel.send('หลังรอ')).content).toBe('หลังรอ');
    expect((await limited)[0]).toMatchObject({ scope: 'user', route: '/channels/:id/messages', global: false });
    const outcomes = fake.callsOf('POST /channels/*/messages').map((call) => (call.outcome && 'status' in call.outcome ? call.outcome.status : 'lost'));
    expect(outcomes).toEqual([429, 200]);
    expect(fake.callsOf('POST /channels/*/messages')[0]?.outcome).toMatchObject({
      body: { message: 'You are being rate limited.', retry_after: 0.05, global: false },
    });
    await channel.sendTyping();
    expect((await fake.waitForCall('POST /channels/:channel/typing')).outcome).toEqual({ status: 204 });
    fake.disconnectNext('POST /channels/*/messages');
    await expect(channel.send('หาย')).rejects.toMatchObject({ name: 'SocketError' });
  });

  it('closes cleanly: client.destroy() sends close 1000 and fake.close() leaves no server or socket open', async () => {
    const tcpHandles = (): number => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;
    const before = tcpHandles();
    const fake = await startFakeDiscord();
    const client = newClient(fake);
    await client.login(fake.token);
    await client.destroy();
    expect(await fake.waitForGatewayClose()).toEqual({ code: 1000, reason: 'Manager was destroyed', by: 'client' });
    await fake.close();
    expect(tcpHandles()).toBeLessThanOrEqual(before);
    await expect(fetch(`${fake.apiUrl}/v10/gateway/bot`)).rejects.toThrow();
  });
});
