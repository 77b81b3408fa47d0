import { html, type Html } from './html.js';

// The pieces every admin form shares: the session's CSRF token as a hidden field (admin-site.ts checks it on every
// change), and the one-button form that asks before it posts (admin.js reads `data-confirm`): delete, cancel,
// unbind, turn off, log out everywhere.

export function csrfField(csrfToken: string): Html {
  return html`<input type="hidden" name="csrf" value="${csrfToken}" />`;
}

export interface ConfirmedFormOptions {
  action: string;
  /** The question admin.js asks before posting. */
  confirm: string;
  label: string;
  csrfToken: string;
  id?: string;
  /** `inline` for a button in a table row or list item. */
  className?: string;
  /** More hidden fields (which conversation to unbind). */
  fields?: Record<string, string>;
}

export function confirmedForm(options: ConfirmedFormOptions): Html {
  const { action, confirm, label, csrfToken, id, className, fields = {} } = options;
  return html`<form
    method="post"
    action="${action}"
    ${id === undefined ? '' : html` id="${id}"`}${className === undefined ? '' : html` class="${className}"`}
    data-confirm="${confirm}"
  >
    ${csrfField(csrfToken)}${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`)}<button
      type="submit"
      class="danger"
    >
      ${label}
    </button>
  </form>`;
}
