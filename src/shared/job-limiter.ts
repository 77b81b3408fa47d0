// The limiter contract between agent/ (web search's per-provider limiter) and src/limits/ (the one shared through
// Redis): agent/ asks for a limiter by name and limit, the composition root hands it a factory.

export interface JobLimit {
  /** Jobs running at once, across every process that shares the limiter. */
  maxConcurrent: number;
  /** Minimum milliseconds between job starts. */
  minTime: number;
}

export interface JobLimiter {
  /** Runs `job` when the limit allows; rejects without running it when the limiter itself fails. */
  schedule<Result>(job: () => Promise<Result>): Promise<Result>;
  close?(): Promise<void>;
}

export type JobLimiterFactory = (name: string, limit: JobLimit) => JobLimiter;
