import { performance } from 'node:perf_hooks';
import { userSource, type FakeLine, type LineCall } from '../test/fakes/line/index.js';
import { lineUsers } from './platform-bots.js';
import { untilEveryMarker } from './platform-load.js';
import { markersIn, questionText, spread, type Spread } from './platform-measure.js';
import { textsOf } from './platform-line-latency.js';

// LINE's share of the combined concurrency run: every message a text event of its own in a 1:1 chat, signed and
// POSTed to the bot child's /webhooks/line, all at once (LINE delivers webhooks side by side). Answers are the
// messages the fake LINE platform delivered: by reply while the token lived, by push after (the fake's quota is
// unlimited here, so a late answer is counted as pushed, not lost).

/** A reply or a push call. */
const answerCall = /^POST \/v2\/bot\/message\/(?:reply|push)$/;

export interface LineShareDetail {
  /** Messages delivered in a reply call (the token still fresh) and in a push (later than LINE_REPLY_WINDOW_MS). */
  replied: number;
  pushed: number;
  /** Webhook POSTs answered other than 200 (LINE would deliver them again). */
  webhookRefusals: number;
  /** POST sent → its 200, under this load. */
  webhookMs: Spread;
}

export interface LineCounts {
  lost: number;
  duplicated: number;
  outOfOrder: number;
  failedSends: number;
  /** POST sent → the first reply or push call carrying its answer received. */
  eventToAnswer: number[];
  detail: LineShareDetail;
}

interface Posted {
  marker: string;
  sentAt: number;
  status: number;
  answeredAt: number;
}

export class LineLoadSide {
  readonly markers: string[] = [];
  private readonly posts: Promise<Posted>[] = [];
  private readonly users: string[];

  constructor(
    private readonly line: FakeLine,
    private readonly webhookUrl: string,
    conversations: number,
  ) {
    this.users = lineUsers(conversations, 'load');
  }

  /** POSTs one message of the conversation `slot` now, without waiting for its 200. */
  push(slot: number, marker: string): void {
    const userId = this.users[slot];
    if (!userId) throw new Error('no LINE user for a conversation');
    const rawBody = JSON.stringify(this.line.webhookBody(this.line.textEvent({ source: userSource(userId), text: questionText(marker) })));
    this.markers.push(marker);
    const sentAt = performance.now();
    this.posts.push(
      this.line.postWebhook(this.webhookUrl, rawBody).then((answer) => ({ marker, sentAt, status: answer.status, answeredAt: performance.now() })),
    );
  }

  /** Resolves when every marker has a reply or push carrying it, or when none came for `stallMs`; the last answer's time. */
  allAnswered(): Promise<number> {
    return untilEveryMarker<LineCall>(
      (predicate) => this.line.waitForCall(answerCall, predicate),
      (call) => (delivered(call) ? textsOf(call) : []),
      this.markers,
    );
  }

  /** Counted on what the fake delivered (its sent messages) and its call log, once the bot has stopped. */
  async count(): Promise<LineCounts> {
    const posted = await Promise.all(this.posts);
    const deliveries = new Map<string, number>();
    const lastMarkerOfChat = new Map<string, string>();
    const outOfOrder = new Set<string>();
    let replied = 0;
    let pushed = 0;
    for (const message of this.line.sentMessages()) {
      for (const marker of markersIn(message.text ?? '')) {
        deliveries.set(marker, (deliveries.get(marker) ?? 0) + 1);
        if (message.via === 'reply') replied++;
        else pushed++;
        const previous = lastMarkerOfChat.get(message.chatId);
        if (previous !== undefined && previous > marker) outOfOrder.add(message.chatId);
        lastMarkerOfChat.set(message.chatId, marker);
      }
    }
    const firstAnsweredAt = new Map<string, number>();
    let failedSends = 0;
    for (const call of this.line.callsOf(answerCall)) {
      if (!delivered(call)) {
        failedSends++;
        continue;
      }
      for (const marker of textsOf(call).flatMap((text) => markersIn(text))) if (!firstAnsweredAt.has(marker)) firstAnsweredAt.set(marker, call.receivedTime);
    }
    return {
      lost: this.markers.filter((marker) => !deliveries.has(marker)).length,
      duplicated: [...deliveries.values()].filter((times) => times > 1).length,
      outOfOrder: outOfOrder.size,
      failedSends,
      eventToAnswer: posted.flatMap(({ marker, sentAt }) => {
        const answeredAt = firstAnsweredAt.get(marker);
        return answeredAt === undefined ? [] : [answeredAt - sentAt];
      }),
      detail: {
        replied,
        pushed,
        webhookRefusals: posted.filter((post) => post.status !== 200).length,
        webhookMs: spread(posted.map((post) => post.answeredAt - post.sentAt)),
      },
    };
  }
}

const delivered = (call: LineCall): boolean => call.outcome !== undefined && 'status' in call.outcome && call.outcome.status === 200;
