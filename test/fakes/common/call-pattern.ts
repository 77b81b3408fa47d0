// Which calls a test means, for the Discord and LINE fakes: `'POST /channels/*/messages'` (a method, then a path where
// `*` or `:name` stands for one segment), a path alone for any method, `'*'` as the method for any, or a RegExp
// tested against `'METHOD /path'`.

export type CallPattern = string | RegExp;

export function matchesCall(pattern: CallPattern, method: string, path: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(`${method} ${path}`);
  const space = pattern.indexOf(' ');
  const wantedMethod = space === -1 ? '*' : pattern.slice(0, space).toUpperCase();
  const wantedPath = space === -1 ? pattern : pattern.slice(space + 1);
  if (wantedMethod !== '*' && wantedMethod !== method) return false;
  return matchesPath(wantedPath, path);
}

export function matchesPath(pattern: string, path: string): boolean {
  const wanted = pattern.split('?')[0]?.split('/') ?? [];
  const actual = path.split('/');
  if (wanted.length !== actual.length) return false;
  return wanted.every((segment, index) => segment === '*' || segment.startsWith(':') || segment === actual[index]);
}
