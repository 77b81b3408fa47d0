import { usageDay, usageKeepDays } from '../../../storage/usage-store.js';
import { visibleSpaces } from '../../web-scope.js';
import type { WebSession } from '../../web-sessions.js';
import type { AdminServices } from '../admin-services.js';

// The spaces a new knowledge base may be created in. A group admin: their own spaces. A bot admin: every space the
// bot knows of — those that own a knowledge base, and those that used the bot within /usage's window (the stores
// keep no other list of spaces; a group that never spoke to the bot has nothing to bind a knowledge base to yet).

const dayMs = 86_400_000;

export async function knownSpaces(
  services: Pick<AdminServices, 'knowledge' | 'storage' | 'timeZone' | 'now'>,
  session: Pick<WebSession, 'scope'>,
): Promise<string[]> {
  if (session.scope.kind === 'spaces') return visibleSpaces(session, []);
  const now = services.now().getTime();
  const days = Array.from({ length: usageKeepDays }, (_, index) => usageDay(new Date(now - index * dayMs), services.timeZone));
  const [bases, usage] = await Promise.all([
    services.knowledge.listKnowledgeBases(),
    // The usage store is a nicety here: a failing read leaves the spaces of the knowledge bases.
    services.storage.usage.totals({ days }).catch(() => []),
  ]);
  return visibleSpaces(session, [...bases.map((base) => base.spaceKey), ...usage.map((row) => row.spaceKey)]);
}
