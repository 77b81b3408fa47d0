import { performance } from 'node:perf_hooks';
import { isRecord } from '../src/shared/is-record.js';
import { userSource, type FakeLine, type LineCall } from '../test/fakes/line/index.js';
import type { BenchBots } from './platform-bots.js';
import { markersIn, questionText, type ModelMoments } from './platform-measure.js';

// One message of the latency run through LINE: a text event in a 1:1 chat (a user source), signed by the fake as
// LINE signs it and POSTed to the real HTTP server's /webhooks/line; the adapter stores it in the durable queue
// before the 200, the worker answers it, and @line/bot-sdk sends the answer in one reply call. Times: the POST sent
// and its 200 (here, the client side), the model server's two moments, the fake LINE API's call log.

export const replyPath = 'POST /v2/bot/message/reply';
const loadingPath = '/v2/bot/chat/loading/start';

/** Where the LINE path's time goes, per message. */
export interface LineDetail {
  /** POST sent → 200 received: the signature checked, the body parsed, the event stored (SQLite commit). */
  webhook: number;
  /** POST sent → POST /v2/bot/chat/loading/start received (1:1 chats: the router's working() at the turn start). */
  eventToLoadingReceived: number;
  /** The loading call's answer − the model answer: > 0 when it was still in flight as the answer came. */
  loadingAnsweredAfterModelAnswer: number;
  /** The reply call reached the fake before the loading call was answered (so the reply did not wait for it). */
  replyBeforeLoadingAnswered: boolean;
  /** API calls the bot made for this message (loading, reply; a push would be a miss of the reply token). */
  calls: number;
  pushes: number;
}

export interface LineResult {
  sample: { inbound: number; outbound: number };
  detail: LineDetail;
}

/** The texts of a reply or push call's messages. */
export function textsOf(call: LineCall): string[] {
  const messages = isRecord(call.body) && Array.isArray(call.body.messages) ? (call.body.messages as unknown[]) : [];
  return messages.flatMap((message) => (isRecord(message) && typeof message.text === 'string' ? [message.text] : []));
}

export const carriesMarker = (call: LineCall, marker: string): boolean => textsOf(call).some((text) => markersIn(text).includes(marker));

export class LineLatencyStep {
  private readonly line: FakeLine;

  constructor(private readonly bots: BenchBots) {
    if (!bots.line) throw new Error('the LINE step needs the fake LINE');
    this.line = bots.line;
  }

  async run(marker: string, chatIndex: number, momentsOf: (marker: string) => ModelMoments): Promise<LineResult> {
    const { line, bots } = this;
    const userId = bots.lineUsers[chatIndex % bots.lineUsers.length];
    if (!userId) throw new Error('no LINE users');
    const firstCall = line.calls.length;
    const replied = line.waitForCall(replyPath, (call) => call.sequence >= firstCall && carriesMarker(call, marker));
    // Built and serialized before the clock starts: the fake signs these exact bytes inside postWebhook.
    const rawBody = JSON.stringify(line.webhookBody(line.textEvent({ source: userSource(userId), text: questionText(marker) })));
    const sentAt = performance.now();
    const answer = await line.postWebhook(bots.lineWebhookUrl, rawBody);
    const okAt = performance.now();
    if (answer.status !== 200) throw new Error(`the LINE webhook answered ${answer.status}: ${answer.body}`);
    const reply = await replied;
    await bots.test.app.inbound.idle();
    const answered = momentsOf(marker);
    if (!reply.outcome || !('status' in reply.outcome) || reply.outcome.status !== 200) throw new Error(`the reply for ${marker} was refused`);
    const calls = line.calls.slice(firstCall);
    const loading = calls.find((call) => call.path === loadingPath);
    const loadingAnsweredAt = loading?.answeredTime ?? Number.NaN;
    return {
      sample: { inbound: answered.requestAt - sentAt, outbound: reply.receivedTime - answered.answerAt },
      detail: {
        webhook: okAt - sentAt,
        eventToLoadingReceived: (loading?.receivedTime ?? Number.NaN) - sentAt,
        loadingAnsweredAfterModelAnswer: loadingAnsweredAt - answered.answerAt,
        replyBeforeLoadingAnswered: reply.receivedTime < loadingAnsweredAt,
        calls: calls.length,
        pushes: calls.filter((call) => call.path === '/v2/bot/message/push').length,
      },
    };
  }
}
