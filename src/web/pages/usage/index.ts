import type { AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';

export function usageRoutes(_services: AdminServices): AdminRoute[] {
  return [];
}
