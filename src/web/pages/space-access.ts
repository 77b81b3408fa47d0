import { canSeeSpace } from '../web-scope.js';
import type { WebSession } from '../web-sessions.js';
import type { AdminServices } from './admin-services.js';

/**
 * Whether the session may change something of the space: in its scope, and — for a group admin — still an admin there
 * by the platform's word now, where the platform tells us (a demoted admin's open session changes nothing more).
 */
export async function mayChangeSpace(services: Pick<AdminServices, 'stillSpaceAdmin'>, session: WebSession, spaceKey: string): Promise<boolean> {
  if (!canSeeSpace(session, spaceKey)) return false;
  if (session.scope.kind === 'global') return true;
  return (await services.stillSpaceAdmin(session.adminId, spaceKey).catch(() => false)) !== false;
}
