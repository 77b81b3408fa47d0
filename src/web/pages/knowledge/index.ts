import type { AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';
import { basePageRoute } from './base-page.js';
import { bindingRoutes } from './binding-routes.js';
import { createRoute } from './create-route.js';
import { deleteRoutes } from './delete-routes.js';
import { sendListPage } from './list-page.js';
import { uploadRoute } from './upload-route.js';
import { UploadSlots } from './upload-slots.js';

// The knowledge-base pages (/admin/kb): the list and the create form, one base's page (documents, search, upload,
// bindings), and the changes, each through the chat's own KnowledgeStore, checked by mayChangeSpace and audited.

/** Uploads processed at once in this process (each holds its files in memory); more are told to try again. */
export const concurrentUploads = 2;

export function knowledgeRoutes(services: AdminServices): AdminRoute[] {
  const slots = new UploadSlots(concurrentUploads);
  return [
    { method: 'GET', path: '/admin/kb', handle: (admin) => sendListPage(services, admin) },
    createRoute(services),
    basePageRoute(services),
    uploadRoute(services, slots),
    ...deleteRoutes(services),
    ...bindingRoutes(services),
  ];
}
