import { MessageType, type APIAttachment, type APIEmbed, type APIMessage, type APIUser } from 'discord.js';
import { isRecord } from '../../../src/shared/is-record.js';
import { discordErrors } from './api-error.js';
import { snowflake } from './ids.js';
import { parseMentions, pingedMentions, resolveUsers } from './mentions.js';
import type { UploadedFile } from './request-body.js';
import type { FakeDiscordState } from './state.js';

// A message the bot creates or edits through REST (a channel message, an interaction response or a follow-up):
// Discord's checks in Discord's order — files ≤ 10 MiB each and 25 MiB together (413), content ≤ 2000 characters
// (50035 BASE_TYPE_MAX_LENGTH), not empty (50006), a reply to an existing message unless fail_if_not_exists is
// false (50035 MESSAGE_REFERENCE_UNKNOWN_MESSAGE) — then the full message object.

export interface MessageAuthoring {
  author: APIUser;
  webhookId?: string;
  applicationId?: string;
  interactionMetadata?: APIMessage['interaction_metadata'];
  /** A deferred interaction response: an empty "thinking…" message Discord creates itself. */
  allowEmpty?: boolean;
}

const fileLimit = 10 * 1024 * 1024;
const requestLimit = 25 * 1024 * 1024;
const contentLimit = 2000;

/** Discord counts characters as code points (an emoji is one). */
const characterCount = (text: string): number => [...text].length;

function uploadedAttachments(state: FakeDiscordState, channelId: string, body: Record<string, unknown>, files: UploadedFile[]): APIAttachment[] {
  if (files.some((file) => file.size > fileLimit) || files.reduce((sum, file) => sum + file.size, 0) > requestLimit) throw discordErrors.entityTooLarge();
  const described = Array.isArray(body.attachments) ? body.attachments.filter(isRecord) : [];
  return files.map((file, index) => {
    const description = described.find((each) => String(each.id) === String(index));
    const name = typeof description?.filename === 'string' ? description.filename : file.name;
    const options = { name, contentType: file.contentType, channelId };
    return state.attachments.add(file.bytes, typeof description?.description === 'string' ? { ...options, description: description.description } : options);
  });
}

function checkContent(content: string, hasOtherParts: boolean): void {
  if (characterCount(content) > contentLimit) throw discordErrors.tooLong('content', contentLimit);
  if (content.length === 0 && !hasOtherParts) throw discordErrors.emptyMessage();
}

function mentionsOf(
  state: FakeDiscordState,
  content: string,
  allowed: unknown,
  replied: APIMessage | undefined,
): Pick<APIMessage, 'mentions' | 'mention_roles' | 'mention_everyone'> {
  const pinged = pingedMentions(parseMentions(content), allowed);
  const guild = replied ? state.guildOf(replied.channel_id) : undefined;
  const known = new Map(
    [state.bot, ...(guild?.members.map((member) => member.user) ?? []), ...state.guilds.flatMap((each) => each.members.map((member) => member.user))].map(
      (user) => [user.id, user],
    ),
  );
  const users = resolveUsers(pinged.users, known);
  if (replied && pinged.repliedUser && !users.some((user) => user.id === replied.author.id)) users.push(replied.author);
  return { mentions: users, mention_roles: pinged.roles, mention_everyone: pinged.everyone };
}

export function createMessage(state: FakeDiscordState, channelId: string, rawBody: unknown, files: UploadedFile[], authoring: MessageAuthoring): APIMessage {
  const body = isRecord(rawBody) ? rawBody : {};
  const attachments = uploadedAttachments(state, channelId, body, files);
  const content = typeof body.content === 'string' ? body.content : '';
  const embeds = Array.isArray(body.embeds) ? (body.embeds as APIEmbed[]) : [];
  const hasOtherParts =
    embeds.length > 0 ||
    attachments.length > 0 ||
    Array.isArray(body.sticker_ids) ||
    isRecord(body.poll) ||
    (Array.isArray(body.components) && body.components.length > 0);
  checkContent(content, hasOtherParts || authoring.allowEmpty === true);
  const reference = isRecord(body.message_reference) ? body.message_reference : undefined;
  let replied: APIMessage | undefined;
  if (reference && typeof reference.message_id === 'string') {
    replied = state.findMessage(typeof reference.channel_id === 'string' ? reference.channel_id : channelId, reference.message_id);
    if (!replied && reference.fail_if_not_exists !== false) throw discordErrors.unknownReference();
  }
  const guild = state.guildOf(channelId);
  const message: APIMessage = {
    id: snowflake(),
    channel_id: channelId,
    author: authoring.author,
    content,
    timestamp: new Date(state.clock()).toISOString(),
    edited_timestamp: null,
    tts: body.tts === true,
    ...mentionsOf(state, content, body.allowed_mentions, replied),
    attachments,
    embeds,
    pinned: false,
    type: replied ? MessageType.Reply : MessageType.Default,
    flags: typeof body.flags === 'number' ? body.flags : 0,
    components: Array.isArray(body.components) ? (body.components as APIMessage['components']) : [],
  };
  if (guild) Object.assign(message, { guild_id: guild.id });
  if (typeof body.nonce === 'string' || typeof body.nonce === 'number') message.nonce = body.nonce;
  if (replied) {
    message.message_reference = { type: 0, message_id: replied.id, channel_id: replied.channel_id, ...(guild ? { guild_id: guild.id } : {}) };
    message.referenced_message = replied;
  }
  if (authoring.webhookId) message.webhook_id = authoring.webhookId;
  if (authoring.applicationId) message.application_id = authoring.applicationId;
  if (authoring.interactionMetadata) message.interaction_metadata = authoring.interactionMetadata;
  return message;
}

/** PATCH: given fields replace, `attachments` keeps the listed existing files, new files are added. */
export function editMessage(state: FakeDiscordState, message: APIMessage, rawBody: unknown, files: UploadedFile[]): APIMessage {
  const body = isRecord(rawBody) ? rawBody : {};
  const kept = Array.isArray(body.attachments)
    ? message.attachments.filter((existing) => (body.attachments as unknown[]).some((each) => isRecord(each) && String(each.id) === existing.id))
    : message.attachments;
  const attachments = [...kept, ...uploadedAttachments(state, message.channel_id, body, files)];
  const content = typeof body.content === 'string' ? body.content : body.content === null ? '' : message.content;
  const embeds = Array.isArray(body.embeds) ? (body.embeds as APIEmbed[]) : body.embeds === null ? [] : message.embeds;
  checkContent(content, embeds.length > 0 || attachments.length > 0 || (message.components?.length ?? 0) > 0);
  const replied = message.referenced_message ?? undefined;
  const mentions = 'content' in body || 'allowed_mentions' in body ? mentionsOf(state, content, body.allowed_mentions, replied) : {};
  const flags = typeof body.flags === 'number' ? body.flags : message.flags;
  Object.assign(message, { content, embeds, attachments, ...mentions, flags, edited_timestamp: new Date(state.clock()).toISOString() });
  return message;
}

export function assertEditable(state: FakeDiscordState, message: APIMessage | undefined): APIMessage {
  if (!message) throw discordErrors.unknownMessage();
  if (message.author.id !== state.bot.id) throw discordErrors.cannotEditOthers();
  return message;
}
