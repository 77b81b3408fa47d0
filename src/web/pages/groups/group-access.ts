import { pick } from '../../../shared/i18n.js';
import type { AdminRequest } from '../../admin-route.js';
import { html } from '../../html.js';
import { canSeeSpace } from '../../web-scope.js';
import { webTexts } from '../../web-texts.js';
import type { AdminServices } from '../admin-services.js';
import { mayChangeSpace } from '../space-access.js';

// Which space a group page or change is about, and whether this session may see or change it. A space outside the
// session's scope is "not found" to a GET (its existence is not told); a change is checked with mayChangeSpace first
// (scope, and a group admin's standing on the platform now) and refused with a 403.

/** The longest space key the stores keep (reminders, catch-up log): a longer one names no space. */
export const spaceKeyChars = 200;

function keyOf(admin: AdminRequest): string | undefined {
  const space = admin.params.space ?? '';
  return space === '' || space.length > spaceKeyChars ? undefined : space;
}

function notFound(admin: AdminRequest): undefined {
  admin.page({
    title: pick(webTexts.notFound, admin.language),
    current: 'groups',
    status: 404,
    body: html`<p><a href="/admin/groups">${pick(webTexts.back, admin.language)}</a></p>`,
  });
  return undefined;
}

/** The route's space when the session may see it; otherwise the 404 page is sent and undefined returned. */
export function visibleSpace(admin: AdminRequest): string | undefined {
  const space = keyOf(admin);
  return space !== undefined && canSeeSpace(admin.session, space) ? space : notFound(admin);
}

/** The route's space when the session may change it now; otherwise the refusal (403) is sent and undefined returned. */
export async function changeableSpace(services: Pick<AdminServices, 'stillSpaceAdmin' | 'log'>, admin: AdminRequest): Promise<string | undefined> {
  const space = keyOf(admin);
  if (space !== undefined && (await mayChangeSpace(services, admin.session, space))) return space;
  services.log.warn({ admin: admin.session.adminId, path: admin.path }, 'admin page: a change of a space this session may not change was refused');
  admin.page({
    title: pick(webTexts.forbidden, admin.language),
    current: 'groups',
    status: 403,
    body: html`<p class="error" role="alert" id="refused">${pick(webTexts.forbidden, admin.language)}</p>
      <p><a href="/admin/groups">${pick(webTexts.back, admin.language)}</a></p>`,
  });
  return undefined;
}
