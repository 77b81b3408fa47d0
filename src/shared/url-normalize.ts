// URL clean-up for display and a stricter key for dedupe (node-DeepResearch url-tools practice).

const trackingParameters = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'msclkid',
  'yclid',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'ref',
  'ref_src',
  'ref_url',
  'spm',
  'si',
  'sessionid',
  'session_id',
  'phpsessid',
  'jsessionid',
  '_ga',
  '_gl',
  'cmpid',
  's_cid',
  'wt_mc',
  'vero_id',
  'oly_enc_id',
  'oly_anon_id',
]);

const maxUrlLength = 2048;

function isTracking(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || trackingParameters.has(lower);
}

function parseWebUrl(raw: string): URL | null {
  if (raw.length > maxUrlLength) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname === '' || url.username !== '' || url.password !== '') return null;
  return url;
}

function dropTracking(url: URL): void {
  // Only touch the query when something goes: rewriting it re-serializes `?flag` as `?flag=`.
  const tracking = [...url.searchParams.keys()].filter(isTracking);
  for (const name of tracking) url.searchParams.delete(name);
  url.hash = '';
}

/**
 * The URL to show: http(s) only, tracking parameters and fragment removed, host lower-cased, default port
 * dropped (the WHATWG parser does the last two). Null for anything that is not a plain web URL.
 */
export function cleanUrl(raw: string): string | null {
  const url = parseWebUrl(raw);
  if (!url) return null;
  dropTracking(url);
  return url.toString();
}

/** Host without a leading `www.`. */
export function hostKey(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.startsWith('www.') ? lower.slice(4) : lower;
}

/**
 * Dedupe key: scheme dropped (http and https are the same page here), `www.` dropped, trailing slash
 * dropped, remaining query parameters sorted. Null when the URL is not a plain web URL.
 */
export function urlKey(raw: string): string | null {
  const url = parseWebUrl(raw);
  if (!url) return null;
  dropTracking(url);
  url.searchParams.sort();
  const path = url.pathname.length > 1 && url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  const port = url.port === '' ? '' : `:${url.port}`;
  return `${hostKey(url.hostname)}${port}${path === '/' ? '' : path}${url.search}`;
}
