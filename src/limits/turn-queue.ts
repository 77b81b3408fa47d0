/**
 * One turn at a time per conversation, in arrival order; different conversations run side by side. The router
 * depends on this only, so a shared backend can take over from the in-process one.
 */
export interface TurnQueue {
  run<Result>(conversationKey: string, job: () => Promise<Result>): Promise<Result>;
  /** Resolves when every queued job has finished (graceful shutdown). */
  drain(): Promise<void>;
}
