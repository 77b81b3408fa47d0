import { DiscordAPIError, PermissionFlagsBits, type REST, Routes } from 'discord.js';
import { ExpiringAnswers } from '../../src/shared/expiring-answers.js';
import { isRecord } from '../../src/shared/is-record.js';
import type { Logger } from '../../src/shared/log.js';

// Whether a member may manage a server now (its owner, or a role with Manage Server or Administrator), asked of
// Discord's REST API: the member's roles, then the server's owner and the permissions of its roles. Messages and
// slash commands carry the sender's permissions already; this is for the admin page, which checks a server admin's
// session again before each change. Cached briefly per server and member: a page of changes costs two calls, and
// a demotion counts within a minute. Both answers are untrusted: a malformed one is a refusal.

export interface ServerAdminStatusOptions {
  rest: Pick<REST, 'get'>;
  logger: Logger;
  ttlMs: number;
  now?: () => number;
}

const unknownMember = 10_007;
const managing = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.Administrator;
const snowflake = /^\d{1,20}$/;

function stringArray(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length <= 1_000 && value.every((each) => typeof each === 'string') ? value : undefined;
}

/** Owner, or the permissions of @everyone (the role whose id is the server's) and the member's roles together. */
function manages(guildId: string, userId: string, roleIds: readonly string[], guild: unknown): boolean {
  if (!isRecord(guild) || !Array.isArray(guild.roles)) throw new Error('discord: no roles in the guild answer');
  if (guild.owner_id === userId) return true;
  const held = new Set([guildId, ...roleIds]);
  let permissions = 0n;
  for (const role of guild.roles.slice(0, 1_000)) {
    if (!isRecord(role) || typeof role.id !== 'string' || !held.has(role.id)) continue;
    if (typeof role.permissions !== 'string' || !/^\d{1,20}$/.test(role.permissions)) throw new Error('discord: a role without permissions');
    permissions |= BigInt(role.permissions);
  }
  return (permissions & managing) !== 0n;
}

export class ServerAdminStatus {
  private readonly answers: ExpiringAnswers<boolean>;

  constructor(private readonly options: ServerAdminStatusOptions) {
    this.answers = new ExpiringAnswers({ ttlMs: options.ttlMs, ...(options.now ? { now: options.now } : {}) });
  }

  async managesServer(guildId: string, userId: string): Promise<boolean> {
    if (!snowflake.test(guildId) || !snowflake.test(userId)) return false;
    const key = `${guildId}:${userId}`;
    const cached = this.answers.get(key);
    if (cached !== undefined) return cached;
    let admin: boolean;
    try {
      admin = await this.ask(guildId, userId);
    } catch (error) {
      // Not cached: the next change asks again. Refusing is the safe answer meanwhile.
      this.options.logger.warn(
        { guildId, error: error instanceof Error ? error.message : String(error) },
        'discord member check failed; treating the user as a member',
      );
      return false;
    }
    this.answers.set(key, admin);
    return admin;
  }

  private async ask(guildId: string, userId: string): Promise<boolean> {
    let member: unknown;
    try {
      member = await this.options.rest.get(Routes.guildMember(guildId, userId));
    } catch (error) {
      if (error instanceof DiscordAPIError && error.code === unknownMember) return false; // left the server
      throw error;
    }
    const roleIds = isRecord(member) ? stringArray(member.roles) : undefined;
    if (!roleIds) throw new Error('discord: no roles in the member answer');
    return manages(guildId, userId, roleIds, await this.options.rest.get(Routes.guild(guildId)));
  }
}
