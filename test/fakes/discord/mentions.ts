import type { APIUser } from 'discord.js';
import { isRecord } from '../../../src/shared/is-record.js';

// The mentions Discord derives from a message's content (`<@id>`, `<@!id>`, `<@&id>`, `@everyone`/`@here`) and the
// part of them that pings, given `allowed_mentions`: absent, everything parsed pings and a reply pings the
// replied-to author; present, only what `parse`/`users`/`roles` allow, and `replied_user` defaults to false.

export interface ParsedMentions {
  users: string[];
  roles: string[];
  everyone: boolean;
}

const userMention = /<@!?(\d{17,20})>/g;
const roleMention = /<@&(\d{17,20})>/g;
const everyoneMention = /@(?:everyone|here)/;

export function parseMentions(content: string): ParsedMentions {
  const unique = (ids: string[]): string[] => [...new Set(ids)];
  return {
    users: unique([...content.matchAll(userMention)].flatMap((match) => (match[1] ? [match[1]] : []))),
    roles: unique([...content.matchAll(roleMention)].flatMap((match) => (match[1] ? [match[1]] : []))),
    everyone: everyoneMention.test(content),
  };
}

export interface PingedMentions extends ParsedMentions {
  repliedUser: boolean;
}

const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;

export function pingedMentions(parsed: ParsedMentions, allowed: unknown): PingedMentions {
  if (!isRecord(allowed)) return { ...parsed, repliedUser: true };
  const parse = new Set(stringList(allowed.parse) ?? []);
  const users = stringList(allowed.users) ?? [];
  const roles = stringList(allowed.roles) ?? [];
  return {
    users: parsed.users.filter((id) => parse.has('users') || users.includes(id)),
    roles: parsed.roles.filter((id) => parse.has('roles') || roles.includes(id)),
    everyone: parsed.everyone && parse.has('everyone'),
    repliedUser: allowed.replied_user === true,
  };
}

/** Users by id from those the fake knows (unknown ids are dropped, as Discord drops them). */
export function resolveUsers(ids: string[], known: Map<string, APIUser>): APIUser[] {
  return ids.flatMap((id) => {
    const user = known.get(id);
    return user ? [user] : [];
  });
}
