// Answers a platform gave, kept for a short time and bounded in number (the oldest go first): whether a user is a
// group's admin, asked again after `ttlMs` so that a demotion counts soon.

export interface ExpiringAnswersOptions {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

export class ExpiringAnswers<T> {
  private readonly answers = new Map<string, { value: T; until: number }>();
  private readonly now: () => number;
  private readonly maxEntries: number;

  constructor(private readonly options: ExpiringAnswersOptions) {
    this.now = options.now ?? Date.now;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The answer while it is fresh; undefined once it has expired or was never given. */
  get(key: string): T | undefined {
    const kept = this.answers.get(key);
    return kept && kept.until > this.now() ? kept.value : undefined;
  }

  set(key: string, value: T): void {
    this.answers.delete(key);
    this.answers.set(key, { value, until: this.now() + this.options.ttlMs });
    if (this.answers.size > this.maxEntries) this.answers.delete(this.answers.keys().next().value ?? key);
  }
}
