import { pick } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';
import { html, type Html } from './html.js';
import { webTexts } from './web-texts.js';

/** The page a `/web` link opens: one button that posts the token (a GET spends nothing, so a link preview cannot). */
export function loginPage(token: string, language: Language): Html {
  // Only the token's own alphabet is put back into the page (it is escaped anyway).
  const shaped = token.length <= 64 && /^[\w-]*$/.test(token) ? token : '';
  return html`<p>${pick(webTexts.loginExplain, language)}</p>
    <form method="post" action="/admin/login">
      <input type="hidden" name="token" value="${shaped}" />
      <button type="submit" class="primary">${pick(webTexts.loginButton, language)}</button>
    </form>`;
}
