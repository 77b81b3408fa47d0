import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { isRecord } from '../src/shared/is-record.js';
import type { DiscordCall, FakeDiscord } from '../test/fakes/discord/index.js';
import { dispatchWrittenTime } from '../test/fakes/discord/gateway.js';
import type { BenchBots } from './platform-bots.js';
import { markersIn, questionText, type ModelMoments } from './platform-measure.js';

// One message of the latency run through Discord: a MESSAGE_CREATE mentioning the bot in a guild text channel,
// written by the fake gateway to the real discord.js client; the adapter stores it in the durable queue, the worker
// answers it, and discord.js's REST client posts the answer. Times come from the fakes: the gateway's frame
// written, the model server's two moments, the REST call log.

/**
 * @discordjs/rest holds every request once 50 were sent within a second (its `globalRequestsPerSecond`, Discord's
 * global limit). A message costs two requests (typing, the answer), so one Discord message per 45 ms at most keeps
 * the run under it: what is measured is the path, not the limiter (whose waits are counted in the report).
 */
export const discordMessageGapMs = 45;

/** Where the Discord path's time goes, per message. */
export interface DiscordDetail {
  /** Frame written → POST /channels/{id}/typing received: discord.js parsed it, the adapter stored it, the turn began. */
  eventToTypingReceived: number;
  /** The typing call's answer − the model answer: > 0 when the reply waited for the typing call in flight. */
  typingAnsweredAfterModelAnswer: number;
  /** REST calls the bot made for this message (typing, answer parts). */
  calls: number;
}

export interface DiscordResult {
  sample: { inbound: number; outbound: number };
  detail: DiscordDetail;
}

export const isAnswerPost = (call: DiscordCall): boolean => call.method === 'POST' && /^\/channels\/\d+\/messages$/.test(call.path);

export function contentOf(call: DiscordCall): string {
  return isRecord(call.body) && typeof call.body.content === 'string' ? call.body.content : '';
}

export class DiscordLatencyStep {
  private lastDispatchAt = Number.NEGATIVE_INFINITY;
  private readonly discord: FakeDiscord;

  constructor(private readonly bots: BenchBots) {
    if (!bots.discord) throw new Error('the Discord step needs the fake Discord');
    this.discord = bots.discord;
  }

  async run(marker: string, channelIndex: number, momentsOf: (marker: string) => ModelMoments): Promise<DiscordResult> {
    const { discord, bots } = this;
    const channelId = bots.discordChannels[channelIndex % bots.discordChannels.length];
    const author = bots.discordAuthors[channelIndex % bots.discordAuthors.length];
    if (!channelId || !author) throw new Error('no Discord channels');
    const firstCall = discord.calls.length;
    const posted = discord.waitForCall('POST /channels/:channel/messages', (call) => call.sequence >= firstCall && markersIn(contentOf(call)).includes(marker));
    const wait = this.lastDispatchAt + discordMessageGapMs - performance.now();
    if (wait > 0) await delay(wait);
    this.lastDispatchAt = performance.now();
    const payload = await discord.dispatchMessage({ channelId, author, content: `<@${discord.botUser.id}> ${questionText(marker)}` });
    if (!payload) throw new Error('the fake gateway would not send the message to the bot');
    const eventSentAt = dispatchWrittenTime(payload);
    if (eventSentAt === undefined) throw new Error('the fake gateway did not stamp the frame');
    await posted;
    await bots.test.app.inbound.idle();
    const answered = momentsOf(marker);
    const calls = discord.calls.slice(firstCall);
    const lastPart = calls.filter((call) => isAnswerPost(call) && call.path === `/channels/${channelId}/messages`).at(-1);
    const typing = calls.find((call) => call.path === `/channels/${channelId}/typing`);
    if (!lastPart) throw new Error(`no answer was posted for ${marker}`);
    return {
      sample: { inbound: answered.requestAt - eventSentAt, outbound: lastPart.receivedTime - answered.answerAt },
      detail: {
        eventToTypingReceived: (typing?.receivedTime ?? Number.NaN) - eventSentAt,
        typingAnsweredAfterModelAnswer: (typing?.answeredTime ?? Number.NaN) - answered.answerAt,
        calls: calls.length,
      },
    };
  }
}
