import { performance } from 'node:perf_hooks';
import type { APIUser } from 'discord.js';
import { startFakeDiscord, type DiscordCall, type FakeDiscord } from '../test/fakes/discord/index.js';
import { dispatchWrittenTime } from '../test/fakes/discord/gateway.js';
import { startFakeLine } from '../test/fakes/line/index.js';
import { startFakeModelServer } from '../test/fakes/model-server.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../test/fakes/telegram/index.js';
import { benchAuthors, benchGuilds, textChannelIds, type RateLimitWaits } from './platform-bots.js';
import type { MemoryReport } from './platform-child.js';
import { contentOf, isAnswerPost } from './platform-discord-latency.js';
import { LineLoadSide, type LineShareDetail } from './platform-line-load.js';
import { allAnswered, countAnswers, deliveries, finish, nextFrom, spawnChild, untilEveryMarker } from './platform-load.js';
import { markerOf, markersIn, questionText, round, scriptEchoingAnswers, spread, type Spread } from './platform-measure.js';

// The concurrency run with the platforms in ONE bot child (the Telegram and the Discord adapter beside each other,
// with LINE's too when it runs; the app, the durable queue; the shipped V8 flags): `conversations` split in turn
// between Telegram private chats, Discord guild text channels (50 to a guild) and LINE 1:1 chats, `per` messages
// each, all handed over at once and interleaved (every conversation's first message, then every second, …). The
// fakes run here, in the parent.

export interface PlatformShare {
  conversations: number;
  messages: number;
  lost: number;
  duplicated: number;
  /** Chats or channels whose answers went out in another order than their questions. */
  outOfOrder: number;
  failedSends: number;
  /** Last answer of this platform received − all messages handed over. */
  elapsedMs: number;
  messagesPerSecond: number;
  /** Telegram: getUpdates answered with the update → its sendMessage; Discord: frame written → its POST; LINE: webhook POST sent → its reply or push. */
  eventToAnswerMs: Spread;
}

export interface CombinedLoad {
  telegram: PlatformShare;
  discord: PlatformShare & { rateLimitWaits?: RateLimitWaits };
  line?: PlatformShare & LineShareDetail;
  /** Messages the model was asked about more than once (both platforms). */
  modelAskedTwice: number;
  updatesDeliveredTwice: number;
  memory: MemoryReport;
}

/** Resolves when every marker has a POST carrying it, or when none came for `stallMs`; the time of the last answer. */
function allPosted(discord: FakeDiscord, markers: ReadonlySet<string>): Promise<number> {
  return untilEveryMarker<DiscordCall>(
    (predicate) => discord.waitForCall('POST /channels/:channel/messages', predicate),
    (call) => [contentOf(call)],
    markers,
  );
}

/** Lost, duplicated and out-of-order answers on the fake's whole REST log, once the bot has stopped. */
function countPosts(calls: readonly DiscordCall[], markers: readonly string[]) {
  const posts = new Map<string, number>();
  const firstPostedAt = new Map<string, number>();
  const lastMarkerOfChannel = new Map<string, string>();
  const outOfOrder = new Set<string>();
  let failedSends = 0;
  for (const call of calls) {
    if (!isAnswerPost(call)) continue;
    const outcome = call.outcome;
    if (!outcome || !('status' in outcome) || outcome.status >= 300) {
      failedSends++;
      continue;
    }
    for (const marker of markersIn(contentOf(call))) {
      posts.set(marker, (posts.get(marker) ?? 0) + 1);
      if (!firstPostedAt.has(marker)) firstPostedAt.set(marker, call.receivedTime);
      const previous = lastMarkerOfChannel.get(call.path);
      if (previous !== undefined && previous > marker) outOfOrder.add(call.path);
      lastMarkerOfChannel.set(call.path, marker);
    }
  }
  return {
    lost: markers.filter((marker) => !posts.has(marker)).length,
    duplicated: [...posts.values()].filter((times) => times > 1).length,
    outOfOrder: outOfOrder.size,
    failedSends,
    firstPostedAt,
  };
}

function share(
  conversations: number,
  markers: readonly string[],
  counted: { lost: number; duplicated: number; outOfOrder: number; failedSends: number },
  elapsedMs: number,
  eventToAnswer: number[],
): PlatformShare {
  return {
    conversations,
    messages: markers.length,
    lost: counted.lost,
    duplicated: counted.duplicated,
    outOfOrder: counted.outOfOrder,
    failedSends: counted.failedSends,
    elapsedMs: round(elapsedMs),
    messagesPerSecond: round((markers.length - counted.lost) / (elapsedMs / 1000)),
    eventToAnswerMs: spread(eventToAnswer),
  };
}

interface Pushed {
  telegramMarkers: string[];
  updateOf: Map<string, number>;
  discordMarkers: string[];
  dispatched: Promise<{ marker: string; payload: Record<string, unknown> | undefined }>[];
}

/** How many of `conversations` fall to platform `index` of `platforms`, dealt in turn. */
const shareOf = (conversations: number, platforms: number, index: number) => Math.floor((conversations - index - 1) / platforms) + 1;

function pushAll(telegram: FakeTelegram, discord: FakeDiscord, line: LineLoadSide | undefined, conversations: number, per: number): Pushed {
  const platforms = line ? 3 : 2;
  const channels = textChannelIds(discord);
  const discordAuthors: APIUser[] = benchAuthors(channels.length, 'load');
  const telegramUsers = Array.from({ length: shareOf(conversations, platforms, 0) }, (_, index) => user(730_000 + index, `ลูกค้า ${index}`, `both_${index}`));
  const pushed: Pushed = { telegramMarkers: [], updateOf: new Map(), discordMarkers: [], dispatched: [] };
  for (let turn = 0; turn < per; turn++) {
    for (let conversation = 0; conversation < conversations; conversation++) {
      const marker = markerOf(turn * conversations + conversation);
      const slot = Math.floor(conversation / platforms);
      if (conversation % platforms === 2) {
        line?.push(slot, marker);
        continue;
      }
      if (conversation % platforms === 0) {
        const from = telegramUsers[slot];
        const update = from ? telegram.pushUpdate(textMessageUpdate({ chat: privateChat(from), from, text: questionText(marker) })) : undefined;
        if (!update) throw new Error('the fake did not queue an update');
        pushed.telegramMarkers.push(marker);
        pushed.updateOf.set(marker, update.update_id);
        continue;
      }
      const channelId = channels[slot];
      const author = discordAuthors[slot];
      if (!channelId || !author) throw new Error('no Discord channel for a conversation');
      pushed.discordMarkers.push(marker);
      const content = `<@${discord.botUser.id}> ${questionText(marker)}`;
      pushed.dispatched.push(discord.dispatchMessage({ channelId, author, content }).then((payload) => ({ marker, payload })));
    }
  }
  return pushed;
}

/** With `withLine`, the LINE adapter joins the same bot and takes every third conversation. */
export async function runCombinedLoad(conversations: number, per: number, withLine = false): Promise<CombinedLoad> {
  const platforms = withLine ? 3 : 2;
  const shares = { telegram: shareOf(conversations, platforms, 0), discord: shareOf(conversations, platforms, 1), line: shareOf(conversations, platforms, 2) };
  const telegram = await startFakeTelegram();
  const discord = await startFakeDiscord({ guilds: benchGuilds(shares.discord) });
  const line = withLine ? await startFakeLine({ quota: 'unlimited' }) : undefined;
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const askedAbout = new Map<string, number>();
  scriptEchoingAnswers(model, conversations * per, (marker) => askedAbout.set(marker, (askedAbout.get(marker) ?? 0) + 1));
  const child = spawnChild(line ? 'all' : 'both', {
    BENCH_MODEL_URL: model.url,
    BENCH_TELEGRAM_TOKEN: telegram.token,
    BENCH_TELEGRAM_URL: telegram.url,
    BENCH_DISCORD_TOKEN: discord.token,
    BENCH_DISCORD_URL: discord.apiUrl,
    ...(line ? { BENCH_LINE_SECRET: line.channelSecret, BENCH_LINE_TOKEN: line.channelAccessToken, BENCH_LINE_URL: line.url } : {}),
  });
  try {
    const ready = await nextFrom(child);
    if (ready.kind !== 'ready') throw new Error('the bot child did not start');
    if (line && ready.lineWebhookUrl === undefined) throw new Error('the bot child has no LINE webhook');
    const lineSide = line && ready.lineWebhookUrl ? new LineLoadSide(line, ready.lineWebhookUrl, shares.line) : undefined;
    const started = performance.now();
    const pushed = pushAll(telegram, discord, lineSide, conversations, per);
    const [telegramLastAt, discordLastAt, lineLastAt, dispatched] = await Promise.all([
      allAnswered(telegram, new Set(pushed.telegramMarkers)),
      allPosted(discord, new Set(pushed.discordMarkers)),
      lineSide?.allAnswered(),
      Promise.all(pushed.dispatched),
    ]);
    const { memory, discordRateLimits } = await finish(child);
    const telegramCounted = countAnswers(telegram.calls, pushed.telegramMarkers);
    const delivered = deliveries(telegram.calls);
    const discordCounted = countPosts(discord.calls, pushed.discordMarkers);
    const telegramLatencies = pushed.telegramMarkers.flatMap((marker) => {
      const sentAt = telegramCounted.firstSentAt.get(marker);
      const deliveredAt = delivered.deliveredAt.get(pushed.updateOf.get(marker) ?? -1);
      return sentAt === undefined || deliveredAt === undefined ? [] : [sentAt - deliveredAt];
    });
    const discordLatencies = dispatched.flatMap(({ marker, payload }) => {
      const postedAt = discordCounted.firstPostedAt.get(marker);
      const writtenAt = payload ? dispatchWrittenTime(payload) : undefined;
      return postedAt === undefined || writtenAt === undefined ? [] : [postedAt - writtenAt];
    });
    const telegramShare = share(
      shares.telegram,
      pushed.telegramMarkers,
      { ...telegramCounted, outOfOrder: telegramCounted.chatsOutOfOrder },
      telegramLastAt - started,
      telegramLatencies,
    );
    const lineCounted = await lineSide?.count();
    return {
      telegram: telegramShare,
      discord: {
        ...share(shares.discord, pushed.discordMarkers, discordCounted, discordLastAt - started, discordLatencies),
        ...(discordRateLimits ? { rateLimitWaits: discordRateLimits } : {}),
      },
      ...(lineSide && lineCounted && lineLastAt !== undefined
        ? { line: { ...share(shares.line, lineSide.markers, lineCounted, lineLastAt - started, lineCounted.eventToAnswer), ...lineCounted.detail } }
        : {}),
      modelAskedTwice: [...askedAbout.values()].filter((times) => times > 1).length,
      updatesDeliveredTwice: delivered.twice,
      memory,
    };
  } finally {
    if (child.exitCode === null) child.kill();
    await model.close();
    await telegram.close();
    await discord.close();
    await line?.close();
  }
}
