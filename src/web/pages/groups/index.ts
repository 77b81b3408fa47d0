import type { AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';

export function groupRoutes(_services: AdminServices): AdminRoute[] {
  return [];
}
