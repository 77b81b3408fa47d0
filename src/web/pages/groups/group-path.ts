// A space's page: its key is one path segment, URL-encoded (`telegram:-100123` → `telegram%3A-100123`).

export function groupPath(spaceKey: string, rest = ''): string {
  return `/admin/groups/${encodeURIComponent(spaceKey)}${rest}`;
}
