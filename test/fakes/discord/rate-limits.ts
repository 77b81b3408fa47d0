import { createHash } from 'node:crypto';

// Per-route rate-limit headers on every answer, so @discordjs/rest's bucket logic runs as against Discord: each
// route template has a bucket hash; a bucket counts per major parameter (channel, guild, or webhook id + token)
// within a window; over the limit the fake answers a real 429 itself.

export interface RouteLimit {
  limit: number;
  resetAfterSeconds: number;
}

interface BucketWindow {
  remaining: number;
  resetAt: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, BucketWindow>();

  constructor(private readonly routeLimit: RouteLimit) {}

  static bucketHash(template: string): string {
    return createHash('sha256').update(template).digest('hex').slice(0, 32);
  }

  /** Takes one request from the bucket: the headers to send, and whether the request is over the limit. */
  take(template: string, majorParameter: string, now: number): { headers: Record<string, string>; exceeded: boolean } {
    const key = `${template}:${majorParameter}`;
    let window = this.windows.get(key);
    if (!window || now >= window.resetAt) {
      window = { remaining: this.routeLimit.limit, resetAt: now + this.routeLimit.resetAfterSeconds * 1000 };
      this.windows.set(key, window);
    }
    const exceeded = window.remaining === 0;
    if (!exceeded) window.remaining -= 1;
    return { headers: rateLimitHeaders(template, this.routeLimit.limit, window.remaining, window.resetAt, now), exceeded };
  }
}

export function rateLimitHeaders(template: string, limit: number, remaining: number, resetAt: number, now: number): Record<string, string> {
  return {
    'X-RateLimit-Bucket': RateLimiter.bucketHash(template),
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': (resetAt / 1000).toFixed(3),
    'X-RateLimit-Reset-After': (Math.max(0, resetAt - now) / 1000).toFixed(3),
  };
}

/** The top-level resource Discord keys a bucket by: `channel`, `guild`, or `webhook` + its token. */
export function majorParameter(params: Record<string, string>): string {
  if (params.channel) return params.channel;
  if (params.guild) return params.guild;
  if (params.webhook) return `${params.webhook}/${params.token ?? ''}`;
  return 'global';
}
