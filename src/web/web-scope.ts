import type { WebScope, WebSession } from './web-sessions.js';

// Scope is the chat's scope (docs/architecture.md, "Admin web page"): a global admin sees every space, a group admin
// the spaces where the chat saw them as one. Every page filters by it and every change is checked against it.

export function seesEverything(scope: WebScope): boolean {
  return scope.kind === 'global';
}

export function canSeeSpace(session: Pick<WebSession, 'scope'>, spaceKey: string): boolean {
  return session.scope.kind === 'global' || session.scope.spaceKeys.includes(spaceKey);
}

/** The spaces a page lists for the session, from those it knows of (a global admin: all of them). */
export function visibleSpaces(session: Pick<WebSession, 'scope'>, known: Iterable<string>): string[] {
  const spaces = new Set(known);
  if (session.scope.kind === 'spaces') for (const spaceKey of session.scope.spaceKeys) spaces.add(spaceKey);
  return [...spaces].filter((spaceKey) => canSeeSpace(session, spaceKey)).sort();
}
