import type { AdminRoute } from '../admin-route.js';
import type { AdminServices } from './admin-services.js';
import { groupRoutes } from './groups/index.js';
import { knowledgeRoutes } from './knowledge/index.js';
import { overviewRoutes } from './overview-page.js';
import { sessionRoutes } from './sessions-page.js';
import { usageRoutes } from './usage/index.js';

/** Every page of the admin site, one file or folder per navigation item (src/web/layout.ts). */
export function adminRoutes(services: AdminServices): AdminRoute[] {
  return [...overviewRoutes(services), ...knowledgeRoutes(services), ...groupRoutes(services), ...usageRoutes(services), ...sessionRoutes(services)];
}
