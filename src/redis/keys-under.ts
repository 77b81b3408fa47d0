import type { RedisClient } from './redis-client.js';

// What follows a prefix in the names of the keys under it, found by SCAN (never KEYS, which blocks the server): the
// spaces a store holds, for the admin page's group list. Bounded twice: at most `limit` names, and at most
// `maxPages` SCAN calls, so a Redis shared with millions of other keys answers a partial list rather than a slow one.

const pageSize = 500;

/** `*`, `?`, `[`, `]` and `\` in the prefix match themselves. */
function globEscaped(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

export async function keysUnder(client: RedisClient, prefix: string, limit: number, maxPages = 200): Promise<string[]> {
  const found = new Set<string>();
  let cursor = '0';
  for (let page = 0; page < maxPages && found.size < limit; page++) {
    const reply = await client.scan(cursor, { MATCH: `${globEscaped(prefix)}*`, COUNT: pageSize });
    for (const key of reply.keys) if (found.size < limit && key.startsWith(prefix)) found.add(key.slice(prefix.length));
    cursor = String(reply.cursor);
    if (cursor === '0') break;
  }
  return [...found].sort();
}
