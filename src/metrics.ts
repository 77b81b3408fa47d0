import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { QueueStats } from './queue/inbound-queue.js';
import type { OcrObservation } from './ocr/ocr-engine.js';
import type { HandledMessage } from './pipeline/router.js';
import type { DeliveryEvent, DeliveryObserver } from './shared/channel.js';
import type { InboundMessage, Platform } from './shared/types.js';
import { usageOfTurn } from './storage/usage-store.js';
import { commandSpec } from './shared/command-table.js';

// Prometheus figures for GET /metrics, named by the Prometheus conventions: the `saeng_` prefix, `_total`
// counters, `_seconds` histograms. Every label value comes from a fixed set (platform, registered tool name,
// guard, action, outcome): never a message's text, a user's name, a chat id or a secret.

/** What the metrics read from the running app once it exists. */
export interface MetricsSources {
  /** The registered tools: any other name a model calls is counted as 'other'. */
  toolNames: readonly string[];
  queueStats: () => Promise<QueueStats>;
}

/** Why the HTTP server refused a request before its route ran (the label values of saeng_http_refused_total). */
export type HttpRefusal = 'bad-target' | 'too-large' | 'busy' | 'too-slow';

/** The token figures counted (the milliseconds are in the turn log only). */
type TokenFigure = 'promptTokens' | 'cachedTokens' | 'processedTokens' | 'generatedTokens';

const platforms = Object.keys({ discord: true, telegram: true, line: true, console: true } satisfies Record<Platform, true>) as Platform[];
const turnBuckets = [0.5, 1, 2, 5, 10, 20, 40, 80, 160];

export class Metrics {
  readonly registry = new Registry();
  private toolNames = new Set<string>();
  private queueStats: (() => Promise<QueueStats>) | undefined;

  private readonly messages = this.counter('saeng_messages_total', 'Inbound messages by admission', ['kind', 'reason']);
  private readonly turns = this.counter('saeng_turns_total', 'Agent turns by outcome (the stop reason)', ['outcome', 'rag']);
  private readonly guards = this.counter('saeng_guard_events_total', 'Guard events that changed an answer', ['guard', 'action']);
  private readonly dlpBlocks = this.counter('saeng_dlp_blocks_total', 'Answers the DLP guard blocked', []);
  private readonly toolCalls = this.counter('saeng_tool_calls_total', 'Tool calls by tool and result', ['tool', 'result']);
  private readonly repliesSent = this.counter('saeng_replies_sent_total', 'Replies sent, by platform', ['platform']);
  private readonly delivery: Record<DeliveryEvent, Counter> = {
    sent: this.counter('saeng_platform_messages_sent_total', 'Messages the platform API accepted (each part of a split reply), by platform', ['platform']),
    retried: this.counter('saeng_platform_retries_total', 'Platform API calls tried again (after a 429, a 5xx or a lost connection), by platform', [
      'platform',
    ]),
    'rate-limited': this.counter('saeng_platform_rate_limited_total', 'Rate-limit answers (HTTP 429) from the platform API, by platform', ['platform']),
  };
  private readonly httpRefused = this.counter('saeng_http_refused_total', 'HTTP requests refused before a route ran, by reason', ['reason']);
  // What the model server says it did (llama-server `timings`, `usage`): cached against processed shows cache reuse.
  // By platform, like /usage's counts (which add per space and user, never as labels here).
  private readonly tokens: Record<TokenFigure, Counter> = {
    promptTokens: this.counter('saeng_model_prompt_tokens_total', 'Prompt tokens of model calls, as the server counts them, by platform', ['platform']),
    cachedTokens: this.counter('saeng_model_cached_prompt_tokens_total', 'Prompt tokens the model server took from its prompt cache, by platform', [
      'platform',
    ]),
    processedTokens: this.counter('saeng_model_processed_prompt_tokens_total', 'Prompt tokens the model server processed anew, by platform', ['platform']),
    generatedTokens: this.counter('saeng_model_generated_tokens_total', 'Tokens the model server generated, by platform', ['platform']),
  };
  private readonly usage = {
    modelSeconds: this.counter('saeng_usage_model_seconds_total', 'Seconds turns waited on the model server, by platform', ['platform']),
    searches: this.counter('saeng_usage_searches_total', 'Successful web_search calls of turns, by platform', ['platform']),
    ocrPages: this.counter('saeng_usage_ocr_pages_total', 'Images whose text a turn read (OCR), by platform', ['platform']),
  };
  private readonly ocrJobs = this.counter('saeng_ocr_jobs_total', 'Image reads by outcome', ['outcome']);
  private readonly turnSeconds = this.histogram('saeng_turn_seconds', 'Whole-turn wall time', turnBuckets);
  private readonly modelSeconds = this.histogram('saeng_turn_model_seconds', 'Time a turn spent waiting on the model server', turnBuckets);
  private readonly ocrSeconds = this.histogram(
    'saeng_ocr_seconds',
    'Wall time of one image read, the wait for a slot included',
    [0.05, 0.25, 0.5, 1, 2, 5, 10, 30],
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // At 0 from the start, so a rate() over the first sends has a starting point (the console sends through no API).
    for (const counter of Object.values(this.delivery)) for (const platform of platforms) if (platform !== 'console') counter.inc({ platform }, 0);
    for (const counter of [...Object.values(this.tokens), ...Object.values(this.usage)]) for (const platform of platforms) counter.inc({ platform }, 0);
    const metrics = this;
    // Read when scraped: the queue's own figures, not a count kept beside it that could drift.
    new Gauge({
      name: 'saeng_inbound_queue_depth',
      help: 'Unfinished inbound messages (waiting, running or being delivered), by platform',
      labelNames: ['platform'],
      registers: [this.registry],
      async collect() {
        const stats = await metrics.queueStats?.();
        for (const platform of platforms) this.set({ platform }, stats?.byPlatform[platform]?.pending ?? 0);
      },
    });
    new Gauge({
      name: 'saeng_inbound_queue_oldest_age_seconds',
      help: 'Age of the oldest unfinished inbound message, by platform (0 when none)',
      labelNames: ['platform'],
      registers: [this.registry],
      async collect() {
        const stats = await metrics.queueStats?.();
        for (const platform of platforms) this.set({ platform }, stats?.byPlatform[platform]?.oldestPendingAgeSeconds ?? 0);
      },
    });
  }

  /** Connects the figures read from the app (tool names, the queue); before this the queue reads as empty. */
  attach(sources: MetricsSources): void {
    this.toolNames = new Set(sources.toolNames);
    this.queueStats = sources.queueStats;
  }

  record(handled: HandledMessage, message?: Pick<InboundMessage, 'platform'>): void {
    // A command's name is the label only when it is one of ours: a typed "/anything" must not grow the label set.
    const command = handled.admission.kind === 'command' ? handled.admission.command.name : undefined;
    const reason = command === undefined ? handled.admission.reason : commandSpec(command) ? command : 'unknown-command';
    this.messages.inc({ kind: handled.admission.kind, reason });
    if (message && handled.replies.length > 0) this.repliesSent.inc({ platform: message.platform }, handled.replies.length);
    const turn = handled.turn;
    if (!turn) return;
    this.turns.inc({ outcome: turn.stopReason, rag: turn.rag });
    this.turnSeconds.observe(turn.totalMs / 1000);
    this.modelSeconds.observe(turn.modelMs / 1000);
    // The direct path's callers (tests, the CLI) may leave the message out: its turn counts as the console's.
    const platform = message?.platform ?? 'console';
    for (const [figure, counter] of Object.entries(this.tokens) as [TokenFigure, Counter][]) {
      const value = turn.modelFigures[figure];
      if (value !== undefined) counter.inc({ platform }, value);
    }
    const counts = usageOfTurn(turn);
    this.usage.modelSeconds.inc({ platform }, counts.modelMs / 1000);
    this.usage.searches.inc({ platform }, counts.searches);
    this.usage.ocrPages.inc({ platform }, counts.ocrPages);
    for (const call of turn.toolCalls) {
      this.toolCalls.inc({ tool: this.toolNames.has(call.name) ? call.name : 'other', result: call.ok ? 'ok' : 'error' });
    }
    for (const event of turn.guardEvents) {
      if (event.action === 'pass') continue;
      this.guards.inc({ guard: event.guard, action: event.action });
      if (event.guard === 'dlp' && event.action === 'block') this.dlpBlocks.inc();
    }
  }

  /** Guard and DLP events since the start, by guard and action (counts only: the admin page's health section). */
  async guardCounts(): Promise<{ guard: string; action: string; count: number }[]> {
    const { values } = await this.guards.get();
    return values.map((value) => ({ guard: String(value.labels.guard ?? ''), action: String(value.labels.action ?? ''), count: value.value }));
  }

  /** What an adapter reports its sends through (src/platforms.ts hands one to each adapter). */
  deliveryObserver(platform: Platform): DeliveryObserver {
    return (event) => this.delivery[event].inc({ platform });
  }

  /** A request the HTTP server refused itself (src/http.ts): a malformed target, a body too large, no room, too slow. */
  recordHttpRefused(reason: HttpRefusal): void {
    this.httpRefused.inc({ reason });
  }

  recordOcr(observation: OcrObservation): void {
    this.ocrJobs.inc({ outcome: observation.outcome });
    this.ocrSeconds.observe(observation.seconds);
  }

  private counter(name: string, help: string, labelNames: string[]): Counter {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  private histogram(name: string, help: string, buckets: number[]): Histogram {
    return new Histogram({ name, help, buckets, registers: [this.registry] });
  }
}
