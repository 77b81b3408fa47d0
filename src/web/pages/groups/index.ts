import type { AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';
import { catchUpRoutes } from './catch-up-change.js';
import { groupListRoutes } from './groups-list.js';
import { groupPageRoutes } from './group-page.js';
import { reminderRoutes } from './reminders-section.js';
import { settingsChangeRoutes } from './settings-change.js';

// The groups pages: the list of the spaces this session may see, and each space's settings, reminders and
// catch-up — the same changes as /settings, /remind cancel and /summary on|off|digest make in the chat.

export function groupRoutes(services: AdminServices): AdminRoute[] {
  return [
    ...groupListRoutes(services),
    ...groupPageRoutes(services),
    ...settingsChangeRoutes(services),
    ...reminderRoutes(services),
    ...catchUpRoutes(services),
  ];
}
