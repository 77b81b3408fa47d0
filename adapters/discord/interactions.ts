import { MessageFlags, PermissionFlagsBits, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import type { InboundHandler } from '../../src/shared/channel.js';
import { describeError } from '../../src/shared/describe-error.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Logger } from '../../src/shared/log.js';
import type { Attachment, InboundMessage, Language } from '../../src/shared/types.js';
import { commandSpec, type CommandSpec, type OptionSpec } from '../../src/shared/command-table.js';
import { discordAttachmentOf } from './inbound.js';
import { answersPrivately, interactionMessageId } from './target.js';

// A slash command → the same stored message a typed command makes (docs/architecture.md, "Data flow of one
// message"): acknowledged at once with a deferred reply (Discord allows 3 s; admin replies only to the caller),
// then stored; the core answers it through the interaction token (responder.ts). Autocomplete of knowledge-base
// options lists the space's knowledge bases, for members who may manage them.

/** An interaction token answers for 15 minutes. */
const tokenLifetimeMs = 15 * 60_000;

const notStored: Localized = {
  th: 'รับคำสั่งไว้ไม่สำเร็จ (ระบบจัดเก็บขัดข้อง) กรุณาลองใหม่อีกครั้ง',
  en: 'The command could not be taken (storage failed). Please try again.',
};
const unknownCommand: Localized = {
  th: 'ไม่รู้จักคำสั่งนี้ (รายการคำสั่งอาจยังไม่อัปเดต) ลอง /help',
  en: 'Unknown command (the command list may be out of date). Try /help.',
};

function optionsOf(spec: CommandSpec, subcommand: string | null): readonly OptionSpec[] {
  if (subcommand === null) return spec.options;
  return spec.subcommands.find((candidate) => candidate.name === subcommand)?.options ?? [];
}

/** The command as it would be typed (`/kb add คู่มือ ข้อความ`), and its attached files. */
export function interactionMessage(interaction: ChatInputCommandInteraction, spec: CommandSpec): InboundMessage {
  const subcommand = spec.subcommands.length > 0 ? interaction.options.getSubcommand(false) : null;
  const words = [`/${spec.name}`, ...(subcommand === null ? [] : [subcommand])];
  const attachments: Attachment[] = [];
  for (const option of optionsOf(spec, subcommand)) {
    if (option.kind === 'attachment') {
      const file = interaction.options.getAttachment(option.name);
      // Uploaded with the command: there is no message to fetch it again from, so its (signed, expiring) URL is
      // kept for the minutes the queue holds the command.
      if (file) attachments.push(discordAttachmentOf(file, { kind: 'url', url: file.url }));
      continue;
    }
    const value = interaction.options.getString(option.name)?.trim();
    if (value) words.push(value);
  }
  const channelId = interaction.channelId;
  const guildId = interaction.guildId;
  return {
    platform: 'discord',
    conversationKey: `discord:${channelId}`,
    spaceKey: guildId ? `discord:${guildId}` : `discord:user:${interaction.user.id}`,
    messageId: interactionMessageId(channelId, interaction.id),
    chatKind: guildId ? 'group' : 'direct',
    sender: {
      id: interaction.user.id,
      name: interaction.member && 'displayName' in interaction.member ? interaction.member.displayName : interaction.user.displayName,
      isPlatformAdmin: interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false,
    },
    text: words.join(' '),
    mentionsBot: true,
    repliesToBot: false,
    attachments,
    receivedAt: interaction.createdAt,
    replyToken: { value: interaction.token, expiresAt: new Date(interaction.createdTimestamp + tokenLifetimeMs) },
  };
}

export interface InteractionIntake {
  handler: InboundHandler;
  logger: Logger;
  language: Language;
}

export async function takeCommand(interaction: ChatInputCommandInteraction, intake: InteractionIntake): Promise<void> {
  const spec = commandSpec(interaction.commandName);
  if (!spec) {
    await interaction.reply({ content: say(unknownCommand, intake.language), flags: MessageFlags.Ephemeral });
    return;
  }
  const message = interactionMessage(interaction, spec);
  // Acknowledged first: storing is quick, but the 3 s are Discord's, and the answer edits this deferred reply.
  await interaction.deferReply(answersPrivately(message.text) ? { flags: MessageFlags.Ephemeral } : {});
  try {
    await intake.handler.accept(message);
  } catch (error) {
    intake.logger.error({ command: spec.name, error: describeError(error) }, 'discord command not stored');
    await interaction.editReply({ content: say(notStored, intake.language) }).catch(() => undefined);
  }
}

/** Choices for a knowledge-base option: the space's knowledge bases whose name holds what was typed. */
export async function answerAutocomplete(interaction: AutocompleteInteraction, handler: InboundHandler): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const spec = commandSpec(interaction.commandName);
  const subcommand = spec && spec.subcommands.length > 0 ? interaction.options.getSubcommand(false) : null;
  const option = spec ? optionsOf(spec, subcommand).find((candidate) => candidate.name === focused.name) : undefined;
  const mayManage = interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? interaction.guildId === null;
  if (option?.kind !== 'knowledge-base' || !mayManage) {
    await interaction.respond([]);
    return;
  }
  const spaceKey = interaction.guildId ? `discord:${interaction.guildId}` : `discord:user:${interaction.user.id}`;
  const typed = String(focused.value).toLocaleLowerCase('th');
  const names = (await handler.knowledgeBaseNames(spaceKey)).filter((name) => name.toLocaleLowerCase('th').includes(typed));
  // Discord shows at most 25 choices.
  await interaction.respond(names.slice(0, 25).map((name) => ({ name, value: name })));
}
