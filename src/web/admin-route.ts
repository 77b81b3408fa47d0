import type http from 'node:http';
import type { RequiredFirstField } from './multipart-upload.js';
import type { Language } from '../shared/types.js';
import type { Html } from './html.js';
import type { NavItem } from './layout.js';
import type { WebSession } from './web-sessions.js';

// What a page of the admin site is: a method, a path (`/admin/kb/:id` takes one segment per `:name`), and a handler
// that gets the signed-in session, already checked (and, for a change, already CSRF-checked).

export interface AdminRequest {
  request: http.IncomingMessage;
  response: http.ServerResponse;
  session: WebSession;
  language: Language;
  path: string;
  query: URLSearchParams;
  /** The `:name` segments of the route's path, URL-decoded. */
  params: Record<string, string>;
  /** A POST's urlencoded form (`body: 'form'`), its CSRF token already checked. */
  form: URLSearchParams;
  /**
   * A `body: 'self'` POST without the `x-csrf-token` header (a plain form, no script): the `csrf` field its multipart
   * body must carry before any file (readMultipartUpload's `firstField`). Undefined when the header was checked.
   */
  csrfInBody?: RequiredFirstField;
  /** Writes an audit entry (who: the session's admin; when: now). */
  audit(action: string, detail: Record<string, string | number>): Promise<void>;
  /** Sends a page in the common frame. */
  page(frame: { title: string; current?: NavItem; body: Html; status?: number }): void;
  /** 303 to another admin page, with a one-line notice shown there. */
  redirect(path: string, notice?: string): void;
}

export interface AdminRoute {
  method: 'GET' | 'POST';
  path: string;
  /**
   * How a POST's body is read: 'form' (urlencoded, bounded; its `csrf` field checked) or 'self' (the route reads it,
   * an upload: the CSRF token comes in the `x-csrf-token` header, checked before the route runs, or as the body's
   * first field, `csrfInBody`, which the route checks as it reads — never in the URL, where proxies log it).
   */
  body?: 'form' | 'self';
  handle(admin: AdminRequest): Promise<void>;
}

/** The `:name` segments of `path` when it matches `pattern`; undefined when it does not. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index++) {
    const expected = want[index] ?? '';
    const actual = have[index] ?? '';
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      try {
        params[expected.slice(1)] = decodeURIComponent(actual);
      } catch {
        return undefined;
      }
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}
