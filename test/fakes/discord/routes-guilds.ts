import type { APIGuildMember } from 'discord.js';
import { discordErrors } from './api-error.js';
import { type FakeGuild, guildPayload } from './fixtures.js';
import { ok, type Route, type RouteContext } from './router.js';

// Guild routes: GET a guild (its owner and roles with their permissions) and GET one member (their role ids), as the
// bot reads them to tell whether someone may manage the server. The state is read live: a test that takes a role
// from a member (`fake.guilds[0].members[…].roles = []`) sees the next call answer without it; a member who left is
// 10007 Unknown Member.

function knownGuild(context: RouteContext): FakeGuild {
  const guild = context.state.guilds.find((each) => each.id === context.params.guild);
  if (!guild) throw discordErrors.unknownGuild();
  return guild;
}

function knownMember(context: RouteContext): APIGuildMember {
  const member = knownGuild(context).members.find((each) => each.user.id === context.params.user);
  if (!member) throw discordErrors.unknownMember();
  return member;
}

export const guildRoutes: Route[] = [
  { method: 'GET', template: '/guilds/:guild', auth: true, handle: (context) => ok(guildPayload(knownGuild(context))) },
  { method: 'GET', template: '/guilds/:guild/members/:user', auth: true, handle: (context) => ok(knownMember(context)) },
];
