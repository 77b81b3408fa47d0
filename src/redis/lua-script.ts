import { createHash } from 'node:crypto';
import type { RedisClient } from './redis-client.js';

/**
 * A server-side Lua script: run by its SHA1 (EVALSHA), loaded on the first NOSCRIPT (a restarted Redis forgets
 * scripts). A script runs atomically, so each of the queue's steps is one round trip and never seen half done.
 */
export class LuaScript {
  private readonly sha: string;

  constructor(private readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, args: readonly (string | number)[]): Promise<unknown> {
    const options = { keys: [], arguments: args.map(String) };
    try {
      return await client.evalSha(this.sha, options);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, options);
    }
  }
}
