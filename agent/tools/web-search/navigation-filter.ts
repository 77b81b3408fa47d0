import { hostKey } from '../../../src/shared/url-normalize.js';

// Pages that answer nothing: log-in / sign-up / account pages, bare channel and profile roots,
// search-engine result pages and placeholder domains.

const accountPath =
  /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:log-?in|sign-?in|sign-?up|signin|signup|register|registration|account|accounts|my-?account|auth|oauth|sso|password|forgot-password|user\/login|users\/sign_in|wp-login\.php|session\/new)(?:[/?#.]|$)/i;
const accountHosts = new Set([
  'accounts.google.com',
  'login.microsoftonline.com',
  'login.live.com',
  'signin.aws.amazon.com',
  'login.yahoo.com',
  'appleid.apple.com',
  'auth0.com',
  'id.atlassian.com',
]);
const accountTitle = /^(?:log ?in|sign ?in|sign ?up|register|create (?:an )?account|เข้าสู่ระบบ|ลงชื่อเข้าใช้|สมัครสมาชิก|ลงทะเบียน)(?=$|[\s\-–—:|,.!])/i;
const searchHosts = new Set(['google.com', 'bing.com', 'duckduckgo.com', 'search.yahoo.com', 'yandex.com', 'baidu.com']);
const placeholderHosts = new Set(['example.com', 'example.org', 'example.net', 'localhost']);

/** Profile roots: the page is the person or channel, not an answer. */
function isProfileRoot(host: string, segments: string[]): boolean {
  const first = segments[0] ?? '';
  switch (host) {
    case 'youtube.com':
    case 'm.youtube.com': {
      if (first.startsWith('@'))
        return segments.length === 1 || (segments.length === 2 && /^(?:videos|featured|shorts|streams|about|playlists)$/i.test(segments[1] ?? ''));
      if (first === 'channel' || first === 'c' || first === 'user') return segments.length <= 3;
      return false;
    }
    case 'facebook.com':
    case 'm.facebook.com':
    case 'x.com':
    case 'twitter.com':
    case 'instagram.com':
    case 'threads.net':
    case 'tiktok.com':
      return segments.length === 1;
    case 'linkedin.com':
      return (first === 'in' || first === 'company') && segments.length === 2;
    default:
      return false;
  }
}

export function isNavigationPage(url: string, title: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return true;
  }
  const host = hostKey(parsed.hostname);
  if (accountHosts.has(host) || placeholderHosts.has(host)) return true;
  if (searchHosts.has(host) && (parsed.pathname.startsWith('/search') || parsed.searchParams.has('q'))) return true;
  if (accountPath.test(parsed.pathname)) return true;
  if (accountTitle.test(title.trim())) return true;
  const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
  return segments.length > 0 && isProfileRoot(host, segments);
}
