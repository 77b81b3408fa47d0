import { Routes } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderForPlatform } from '../format/by-platform.js';
import type { LiveAnswer, Responder } from '../../../src/shared/channel.js';
import type { Logger } from '../../../src/shared/log.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { rateLimited, type DiscordCall, type FakeDiscord } from '../../fakes/discord/index.js';
import { longThaiText } from '../../support/long-thai-text.js';
import { memoryLog } from '../../support/memory-log.js';
import { recordingJournal } from '../../support/recording-journal.js';
import { deferredCommand, question, responderFor, setUpResponder, type ResponderSetup } from './responder-setup.js';
import { WatchedScheduler } from './watched-scheduler.js';

// A streamed answer on Discord over real @discordjs/rest against the fake: one message posted as a reply to the
// user's message, edited at most once a second (time moved by hand), completed by the final reply's first part;
// an earlier attempt's message is edited, a deleted one replaced, a 429 pauses the edits. A slash command streams
// into its deferred reply while the token lives, then into a channel message.

const channelEdits = 'PATCH /channels/*/messages/*';
const channelPosts = 'POST /channels/*/messages';

let setup: ResponderSetup;
let fake: FakeDiscord;
let scheduler: WatchedScheduler;
beforeEach(async () => {
  setup = await setUpResponder();
  fake = setup.fake;
  scheduler = new WatchedScheduler();
});
afterEach(async () => {
  await setup.close();
});

const contentOf = (call: DiscordCall): unknown => (call.body as { content?: unknown } | undefined)?.content;
const answered = (status: number, content?: string) => (call: DiscordCall) =>
  call.outcome !== undefined && 'status' in call.outcome && call.outcome.status === status && (content === undefined || contentOf(call) === content);
const contents = () => fake.sentMessages(fake.channel('general').id).map((message) => message.content);

interface Streaming {
  responder: Responder;
  live: LiveAnswer;
  remembered: string[];
}

function stream(message: InboundMessage = question(fake), earlier?: string, logger?: Logger): Streaming {
  const responder = responderFor(setup, message, { scheduler, ...(logger ? { logger } : {}) });
  const remembered: string[] = [];
  const live = responder.live?.({ remember: async (id) => void remembered.push(id), ...(earlier === undefined ? {} : { earlier }) });
  if (!live) throw new Error('the Discord responder has no live answer');
  return { responder, live, remembered };
}

/** Shows `text` as the next paced update (the pause after the `calls`-th call is over) and waits for it to land. */
async function nextUpdate(live: LiveAnswer, text: string, calls: number, pattern = channelEdits): Promise<DiscordCall> {
  await scheduler.scheduled(calls);
  live.show(text);
  scheduler.advance(1_000);
  return fake.waitForCall(pattern, answered(200, text));
}

describe('Discord live answer in a channel', () => {
  it('posts one message replying to the user, edits it, and the final reply completes it by an edit', async () => {
    const { responder, live, remembered } = stream();
    live.show('สวัสดี');
    const posted = await fake.waitForCall(channelPosts, answered(200, 'สวัสดี'));
    expect(posted.body).toMatchObject({
      message_reference: { message_id: '1500000000000000009', fail_if_not_exists: false },
      allowed_mentions: { parse: [], replied_user: false },
    });
    await nextUpdate(live, 'สวัสดีครับ วันนี้', 1);
    expect(scheduler.delays[0]).toBe(1_000);
    await live.end();
    const postedId = fake.sentMessages()[0]?.id ?? '';
    expect(remembered).toEqual([postedId]);

    const journal = recordingJournal({ liveMessage: postedId });
    await responder.send({ text: 'สวัสดีครับ วันนี้อากาศดี', files: [] }, journal);
    expect(fake.callsOf(channelPosts)).toHaveLength(1);
    expect(fake.callsOf(channelEdits).map(contentOf)).toEqual(['สวัสดีครับ วันนี้', 'สวัสดีครับ วันนี้อากาศดี']);
    expect(contents()).toEqual(['สวัสดีครับ วันนี้อากาศดี']);
    expect(journal.marks).toEqual(['sending 0', 'sent 0']);
  });

  it('cuts a long preview to one message with "…"; the long final reply edits part 0 and posts the rest', async () => {
    const { responder, live, remembered } = stream();
    const text = longThaiText(4_500);
    live.show(text);
    const posted = await fake.waitForCall(channelPosts, answered(200));
    const preview = String(contentOf(posted));
    expect(preview.endsWith('…')).toBe(true);
    expect([...preview].length).toBeLessThanOrEqual(2_000);
    await live.end();

    const journal = recordingJournal({ liveMessage: remembered[0] });
    await responder.send({ text, files: [] }, journal);
    const expected = renderForPlatform(text, 'discord');
    expect(expected.length).toBeGreaterThan(2);
    expect(contents()).toEqual(expected);
    expect(fake.callsOf(channelPosts)).toHaveLength(expected.length);
    expect(fake.callsOf(channelEdits).map(contentOf)).toEqual([expected[0]]);
    expect(journal.marks).toEqual(expected.flatMap((_, index) => [`sending ${index}`, `sent ${index}`]));
  });

  it("edits an earlier attempt's message instead of posting again", async () => {
    const channelId = fake.channel('general').id;
    const earlier = (await setup.rest.post(Routes.channelMessages(channelId), { body: { content: 'ก่อนรีสตาร์ต' } })) as { id: string };
    const { responder, live, remembered } = stream(question(fake), earlier.id);
    live.show('ต่อจากเดิม');
    const edit = await fake.waitForCall(channelEdits, answered(200, 'ต่อจากเดิม'));
    expect(edit.path).toBe(`/channels/${channelId}/messages/${earlier.id}`);
    await live.end();
    await responder.send({ text: 'ต่อจากเดิม จบแล้ว', files: [] }, recordingJournal({ liveMessage: earlier.id }));
    expect(fake.callsOf(channelPosts)).toHaveLength(1);
    expect(remembered).toEqual([]);
    expect(contents()).toEqual(['ต่อจากเดิม จบแล้ว']);
  });

  it('replaces a deleted live message, and posts the final reply anew when the message is gone at the end', async () => {
    const channelId = fake.channel('general').id;
    const { responder, live, remembered } = stream();
    live.show('ร่างแรก');
    await fake.waitForCall(channelPosts, answered(200, 'ร่างแรก'));
    await setup.rest.delete(Routes.channelMessage(channelId, fake.sentMessages()[0]?.id ?? ''));
    await nextUpdate(live, 'ร่างสอง', 1, channelPosts);
    expect(fake.callsOf(channelEdits).map((call) => call.outcome)).toMatchObject([{ status: 404, body: { code: 10008 } }]);
    await live.end();
    expect(remembered).toHaveLength(2);

    await setup.rest.delete(Routes.channelMessage(channelId, remembered[1] ?? ''));
    const journal = recordingJournal({ liveMessage: remembered[1] });
    await responder.send({ text: 'คำตอบสุดท้าย', files: [] }, journal);
    expect(contents()).toEqual(['คำตอบสุดท้าย']);
    const final = fake.callsOf(channelPosts).at(-1);
    expect(final?.body).toMatchObject({ content: 'คำตอบสุดท้าย', message_reference: { message_id: '1500000000000000009' } });
    expect(journal.marks).toEqual(['sending 0', 'sent 0']);
  });

  it('pauses for as long as a 429 on an edit asks, then a later edit goes through', async () => {
    const { live } = stream();
    live.show('หนึ่ง');
    await fake.waitForCall(channelPosts, answered(200, 'หนึ่ง'));
    fake.failNext(channelEdits, rateLimited({ retryAfter: 0.05 }));
    await scheduler.scheduled(1);
    live.show('สอง');
    scheduler.advance(1_000);
    const limited = await fake.waitForCall(channelEdits, answered(429));
    expect(limited.outcome).toMatchObject({ body: { retry_after: 0.05, global: false } });
    await scheduler.scheduled(2);
    // Retry-After says 1 s (whole seconds) and @discordjs/rest adds its 50 ms offset: longer than the pace.
    expect(scheduler.delays[1]).toBe(1_050);
    live.show('สาม');
    scheduler.advance(1_050);
    await fake.waitForCall(channelEdits, answered(200, 'สาม'));
    await live.end();
    expect(fake.callsOf(channelEdits).map(contentOf)).toEqual(['สอง', 'สาม']);
    expect(contents()).toEqual(['สาม']);
  });

  it('shows a running step in italics under the text until text comes again', async () => {
    const { live } = stream();
    live.status({ kind: 'tool', tool: 'web_search' });
    await fake.waitForCall(channelPosts, answered(200, '*กำลังค้นเว็บ…*'));
    await scheduler.scheduled(1);
    live.show('ราคาทองวันนี้');
    live.status({ kind: 'tool', tool: 'fetch_url' });
    scheduler.advance(1_000);
    await fake.waitForCall(channelEdits, answered(200, 'ราคาทองวันนี้\n\n*กำลังเปิดหน้าเว็บ…*'));
    await nextUpdate(live, 'ราคาทองวันนี้ บาทละ', 2);
    await live.end();
    expect(contents()).toEqual(['ราคาทองวันนี้ บาทละ']);
  });
});

describe('Discord live answer failures', () => {
  it('logs a refused update without its text and never throws; the answer still goes out', async () => {
    const { log, lines, records } = memoryLog('info');
    const { responder, live } = stream(question(fake), undefined, log);
    fake.failNext(channelPosts, { status: 403, body: { code: 50001, message: 'Missing Access' } });
    live.show('คำตอบลับ');
    await fake.waitForCall(channelPosts, answered(403));
    await live.end();
    expect(records.filter((record) => record.msg === 'discord live answer update failed')).toMatchObject([{ level: 30, code: 50001, status: 403 }]);
    expect(lines.some((line) => line.includes('คำตอบลับ'))).toBe(false);
    await responder.send({ text: 'คำตอบลับ ครบแล้ว', files: [] }, recordingJournal());
    expect(contents()).toEqual(['คำตอบลับ ครบแล้ว']);
  });
});

describe('Discord live answer of a slash command', () => {
  const original = () => `PATCH /webhooks/${fake.applicationId}/*/messages/@original`;

  it('streams into the deferred reply, which the final reply edits as before; nothing is remembered', async () => {
    const { responder, live, remembered } = stream(await deferredCommand(setup, 'ask', 'ราคาทองวันนี้'));
    live.show('ราคา');
    const first = await fake.waitForCall(original(), answered(200, 'ราคา'));
    expect(first.auth).toBe('missing');
    await nextUpdate(live, 'ราคาทอง', 1, original());
    await live.end();
    const journal = recordingJournal();
    await responder.send({ text: 'ราคาทองวันนี้ บาทละ', files: [] }, journal);
    expect(remembered).toEqual([]);
    expect(fake.callsOf(channelPosts)).toHaveLength(0);
    expect(fake.callsOf(original()).map(contentOf)).toEqual(['ราคา', 'ราคาทอง', 'ราคาทองวันนี้ บาทละ']);
    expect(contents()).toEqual(['ราคาทองวันนี้ บาทละ']);
    expect(journal.marks).toEqual(['sending 0', 'sent 0']);
  });

  it('moves to a channel message once the token expired; the final reply completes that message', async () => {
    const message = await deferredCommand(setup, 'ask', 'ราคาทองวันนี้');
    const { responder, live, remembered } = stream(message);
    live.show('ราคา');
    await fake.waitForCall(original(), answered(200, 'ราคา'));
    fake.expireInteractionToken(message.interactionId);
    await nextUpdate(live, 'ราคาทอง', 1, channelPosts);
    expect(fake.callsOf(original()).map((call) => call.outcome)).toMatchObject([{ status: 200 }, { status: 401, body: { code: 50027 } }]);
    await live.end();
    const moved = fake.sentMessages().at(-1)?.id;
    expect(remembered).toEqual([moved]);
    await responder.send({ text: 'ราคาทองวันนี้ บาทละ', files: [] }, recordingJournal({ liveMessage: moved }));
    expect(fake.callsOf(channelEdits).map(contentOf)).toEqual(['ราคาทองวันนี้ บาทละ']);
    expect(fake.callsOf(channelPosts)).toHaveLength(1);
    // The deferred reply keeps its last preview: its token can edit it no more.
    expect(contents()).toEqual(['ราคา', 'ราคาทองวันนี้ บาทละ']);
  });

  it('never previews a private answer in the channel, even once its token is gone', async () => {
    const message = await deferredCommand(setup, 'whoami', '/whoami');
    fake.expireInteractionToken(message.interactionId);
    const { live } = stream(message);
    live.show('รหัสของคุณ');
    await fake.waitForCall(original(), answered(401));
    live.show('รหัสของคุณคือ');
    await live.end();
    expect(fake.callsOf(channelPosts)).toHaveLength(0);
  });
});
