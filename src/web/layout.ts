import { pick, say } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';
import { html, type Html } from './html.js';
import type { WebSession } from './web-sessions.js';
import { webTexts } from './web-texts.js';
import { csrfField } from './form-fields.js';

// The frame of every admin page: the one stylesheet and script (no inline code: the CSP allows none), the
// navigation, who is signed in, the language switch and the log-out form. Usable on a phone (the viewport meta and
// a single column below 40em in admin.css).

export type NavItem = 'overview' | 'knowledge' | 'groups' | 'usage' | 'sessions';

const navigation: { item: NavItem; path: string; label: keyof typeof webTexts }[] = [
  { item: 'overview', path: '/admin', label: 'navOverview' },
  { item: 'knowledge', path: '/admin/kb', label: 'navKnowledge' },
  { item: 'groups', path: '/admin/groups', label: 'navGroups' },
  { item: 'usage', path: '/admin/usage', label: 'navUsage' },
  { item: 'sessions', path: '/admin/sessions', label: 'navSessions' },
];

export interface PageFrame {
  title: string;
  language: Language;
  /** Absent on the log-in and signed-out pages. */
  session?: WebSession;
  current?: NavItem;
  /** The page's own path, where the language switch comes back to. */
  path?: string;
  body: Html;
}

function head(title: string, language: Language): Html {
  return html`<!doctype html>
    <html lang="${language}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · ${pick(webTexts.siteName, language)}</title>
        <link rel="stylesheet" href="/admin/static/admin.css" />
        <script src="/admin/static/admin.js" defer></script>
      </head>
    </html>`;
}

function header(frame: PageFrame, session: WebSession): Html {
  const { language } = frame;
  const scope =
    session.scope.kind === 'global' ? pick(webTexts.scopeGlobal, language) : say(webTexts.scopeSpaces, language, { count: session.scope.spaceKeys.length });
  const other = language === 'th' ? 'en' : 'th';
  const back = encodeURIComponent(frame.path ?? '/admin');
  return html`<header>
    <nav aria-label="${pick(webTexts.siteName, language)}">
      <a class="brand" href="/admin">☀ ${pick(webTexts.siteName, language)}</a>
      <ul>
        ${navigation.map(
          ({ item, path, label }) =>
            html`<li><a href="${path}" ${item === frame.current ? html` aria-current="page"` : ''}>${pick(webTexts[label], language)}</a></li>`,
        )}
      </ul>
    </nav>
    <div class="who">
      <span>${say(webTexts.signedInAs, language, { name: session.name })} · ${scope}</span>
      <a href="/admin/language?to=${other}&amp;back=${back}">${pick(webTexts.switchLanguage, language)}</a>
      <form method="post" action="/admin/logout" class="inline">
        ${csrfField(session.csrfToken)}<button type="submit" class="link">${pick(webTexts.logout, language)}</button>
      </form>
    </div>
  </header>`;
}

export function renderPage(frame: PageFrame): Html {
  return html`${head(frame.title, frame.language)}
<body${frame.session ? html` data-csrf="${frame.session.csrfToken}"` : ''}>
${frame.session ? header(frame, frame.session) : ''}
<main>
<h1>${frame.title}</h1>
${frame.body}
</main>
</body>
</html>`;
}
