import { visibleSpaces } from '../../web-scope.js';
import type { WebSession } from '../../web-sessions.js';
import type { AdminServices } from '../admin-services.js';
import { knownSpaces as spacesTheStoresName } from '../groups/known-spaces.js';

// The spaces a new knowledge base may be created in. A group admin: their own spaces. A bot admin: every space the
// stores can name, as the groups page lists them (knowledge bases' owners, and the month's usage): a group that never
// spoke to the bot has no conversation to bind a knowledge base to yet.

export async function knownSpaces(
  services: Pick<AdminServices, 'knowledge' | 'storage' | 'timeZone' | 'now' | 'log'>,
  session: Pick<WebSession, 'scope'>,
): Promise<string[]> {
  if (session.scope.kind === 'spaces') return visibleSpaces(session, []);
  return visibleSpaces(session, (await spacesTheStoresName(services)).keys());
}
