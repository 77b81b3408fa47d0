import { performance } from 'node:perf_hooks';
import type { APIUser } from 'discord.js';
import { startFakeDiscord, type DiscordCall, type FakeDiscord } from '../test/fakes/discord/index.js';
import { dispatchWrittenTime } from '../test/fakes/discord/gateway.js';
import { startFakeModelServer } from '../test/fakes/model-server.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../test/fakes/telegram/index.js';
import { benchAuthors, benchGuilds, textChannelIds, type RateLimitWaits } from './platform-bots.js';
import type { MemoryReport } from './platform-child.js';
import { contentOf, isAnswerPost } from './platform-discord-latency.js';
import { allAnswered, countAnswers, deliveries, finish, nextFrom, spawnChild, stallMs } from './platform-load.js';
import { markerOf, markersIn, questionText, round, scriptEchoingAnswers, spread, type Spread } from './platform-measure.js';

// The concurrency run with both platforms in ONE bot child (the Telegram and the Discord adapter beside each other,
// the app, the durable queue; the shipped V8 flags): `conversations` split between Telegram private chats (even
// indexes) and Discord guild text channels (odd indexes, 50 to a guild), `per` messages each, all handed over at once
// and interleaved (every conversation's first message, then every second, …). The fakes run here, in the parent.

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
  /** Telegram: getUpdates answered with the update → its sendMessage; Discord: frame written → its POST. */
  eventToAnswerMs: Spread;
}

export interface CombinedLoad {
  telegram: PlatformShare;
  discord: PlatformShare & { rateLimitWaits?: RateLimitWaits };
  /** Messages the model was asked about more than once (both platforms). */
  modelAskedTwice: number;
  updatesDeliveredTwice: number;
  memory: MemoryReport;
}

/** Resolves when every marker has a POST carrying it, or when none came for `stallMs`; the time of the last answer. */
async function allPosted(discord: FakeDiscord, markers: ReadonlySet<string>): Promise<number> {
  const waiting = new Set(markers);
  let lastAnswerAt = performance.now();
  let progressAt = Date.now();
  const everyAnswered = discord.waitForCall('POST /channels/:channel/messages', (call) => {
    for (const marker of markersIn(contentOf(call))) {
      if (waiting.delete(marker)) {
        lastAnswerAt = Math.max(lastAnswerAt, call.receivedTime);
        progressAt = Date.now();
      }
    }
    return waiting.size === 0;
  });
  let watchdog: NodeJS.Timeout | undefined;
  const stalled = new Promise<void>((resolve) => {
    watchdog = setInterval(() => {
      if (Date.now() - progressAt > stallMs) resolve();
    }, 1_000);
  });
  await Promise.race([everyAnswered, stalled]);
  clearInterval(watchdog);
  return lastAnswerAt;
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

function pushAll(telegram: FakeTelegram, discord: FakeDiscord, conversations: number, per: number): Pushed {
  const channels = textChannelIds(discord);
  const discordAuthors: APIUser[] = benchAuthors(channels.length, 'load');
  const telegramUsers = Array.from({ length: Math.ceil(conversations / 2) }, (_, index) => user(730_000 + index, `ลูกค้า ${index}`, `both_${index}`));
  const pushed: Pushed = { telegramMarkers: [], updateOf: new Map(), discordMarkers: [], dispatched: [] };
  for (let turn = 0; turn < per; turn++) {
    for (let conversation = 0; conversation < conversations; conversation++) {
      const marker = markerOf(turn * conversations + conversation);
      const slot = Math.floor(conversation / 2);
      if (conversation % 2 === 0) {
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

export async function runCombinedLoad(conversations: number, per: number): Promise<CombinedLoad> {
  const telegram = await startFakeTelegram();
  const discord = await startFakeDiscord({ guilds: benchGuilds(Math.floor(conversations / 2)) });
  const model = await startFakeModelServer({ modelId: 'test-model' });
  const askedAbout = new Map<string, number>();
  scriptEchoingAnswers(model, conversations * per, (marker) => askedAbout.set(marker, (askedAbout.get(marker) ?? 0) + 1));
  const child = spawnChild('both', {
    BENCH_MODEL_URL: model.url,
    BENCH_TELEGRAM_TOKEN: telegram.token,
    BENCH_TELEGRAM_URL: telegram.url,
    BENCH_DISCORD_TOKEN: discord.token,
    BENCH_DISCORD_URL: discord.apiUrl,
  });
  try {
    if ((await nextFrom(child)).kind !== 'ready') throw new Error('the bot child did not start');
    const started = performance.now();
    const pushed = pushAll(telegram, discord, conversations, per);
    const [telegramLastAt, discordLastAt, dispatched] = await Promise.all([
      allAnswered(telegram, new Set(pushed.telegramMarkers)),
      allPosted(discord, new Set(pushed.discordMarkers)),
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
      Math.ceil(conversations / 2),
      pushed.telegramMarkers,
      { ...telegramCounted, outOfOrder: telegramCounted.chatsOutOfOrder },
      telegramLastAt - started,
      telegramLatencies,
    );
    return {
      telegram: telegramShare,
      discord: {
        ...share(Math.floor(conversations / 2), pushed.discordMarkers, discordCounted, discordLastAt - started, discordLatencies),
        ...(discordRateLimits ? { rateLimitWaits: discordRateLimits } : {}),
      },
      modelAskedTwice: [...askedAbout.values()].filter((times) => times > 1).length,
      updatesDeliveredTwice: delivered.twice,
      memory,
    };
  } finally {
    if (child.exitCode === null) child.kill();
    await model.close();
    await telegram.close();
    await discord.close();
  }
}
