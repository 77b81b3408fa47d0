import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { HandledMessage } from './router.js';

/** Prometheus figures for GET /metrics: admissions, turns, guard events, turn time. */
export class Metrics {
  readonly registry = new Registry();
  private readonly messages = new Counter({
    name: 'saeng_messages_total',
    help: 'Inbound messages by admission',
    labelNames: ['kind', 'reason'],
    registers: [this.registry],
  });
  private readonly turns = new Counter({
    name: 'saeng_turns_total',
    help: 'Agent turns by stop reason',
    labelNames: ['stop_reason', 'rag'],
    registers: [this.registry],
  });
  private readonly guards = new Counter({
    name: 'saeng_guard_events_total',
    help: 'Guard events that changed an answer',
    labelNames: ['guard', 'action'],
    registers: [this.registry],
  });
  private readonly turnSeconds = new Histogram({
    name: 'saeng_turn_seconds',
    help: 'Whole-turn wall time',
    buckets: [0.5, 1, 2, 5, 10, 20, 40, 80, 160],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  record(handled: HandledMessage): void {
    const reason = handled.admission.kind === 'command' ? handled.admission.command.name : handled.admission.reason;
    this.messages.inc({ kind: handled.admission.kind, reason });
    const turn = handled.turn;
    if (!turn) return;
    this.turns.inc({ stop_reason: turn.stopReason, rag: turn.rag });
    this.turnSeconds.observe(turn.totalMs / 1000);
    for (const event of turn.guardEvents) if (event.action !== 'pass') this.guards.inc({ guard: event.guard, action: event.action });
  }
}
