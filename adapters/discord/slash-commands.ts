import {
  ApplicationIntegrationType,
  InteractionContextType,
  PermissionFlagsBits,
  Routes,
  SlashCommandBuilder,
  type SlashCommandAttachmentOption,
  type SlashCommandStringOption,
  SlashCommandSubcommandBuilder,
  type REST,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import { pick, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { commandTable, type OptionSpec } from '../../src/shared/command-table.js';

// The slash commands as Discord's builders make them (docs/platforms.md §1.4): descriptions in BOT_LANGUAGE with Thai
// and English localizations, /kb shown to Manage Server by default, knowledge-base options autocompleted.
// Registered per guild when DISCORD_GUILD_IDS is set (instant), else globally (Discord takes up to an hour).

interface Describable {
  setDescription(text: string): unknown;
  setDescriptionLocalizations(localizations: Record<string, string>): unknown;
}

function describe<Builder extends Describable>(builder: Builder, text: Localized, language: Language): Builder {
  builder.setDescription(pick(text, language));
  builder.setDescriptionLocalizations({ th: text.th, 'en-US': text.en, 'en-GB': text.en });
  return builder;
}

/** What a command and a subcommand builder have in common for our options. */
interface OptionHolder {
  addStringOption(input: (option: SlashCommandStringOption) => SlashCommandStringOption): unknown;
  addAttachmentOption(input: (option: SlashCommandAttachmentOption) => SlashCommandAttachmentOption): unknown;
}

function addOption(holder: OptionHolder, option: OptionSpec, language: Language): void {
  if (option.kind === 'attachment') {
    holder.addAttachmentOption((built) => describe(built.setName(option.name).setRequired(option.required), option.description, language));
    return;
  }
  holder.addStringOption((built) => {
    built.setName(option.name).setRequired(option.required);
    if (option.choices) {
      built.addChoices(
        ...option.choices.map((choice) => ({
          name: pick(choice.name, language),
          name_localizations: { th: choice.name.th, 'en-US': choice.name.en, 'en-GB': choice.name.en },
          value: choice.value,
        })),
      );
    } else {
      built.setAutocomplete(option.kind === 'knowledge-base').setMaxLength(1_500);
    }
    return describe(built, option.description, language);
  });
}

export interface CommandSetOptions {
  language: Language;
  searchConfigured: boolean;
}

export function slashCommands(options: CommandSetOptions): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  return commandTable
    .filter((command) => !command.needsSearch || options.searchConfigured)
    .map((command) => {
      const builder = describe(new SlashCommandBuilder().setName(command.name), command.discordDescription ?? command.description, options.language)
        .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
        .setIntegrationTypes(ApplicationIntegrationType.GuildInstall);
      if (command.administrators) builder.setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild);
      for (const option of command.options) addOption(builder, option, options.language);
      for (const subcommand of command.subcommands) {
        builder.addSubcommand((built: SlashCommandSubcommandBuilder) => {
          describe(built.setName(subcommand.name), subcommand.description, options.language);
          for (const option of subcommand.options) addOption(built, option, options.language);
          return built;
        });
      }
      return builder.toJSON();
    });
}

/** Bulk overwrite: per guild when given, else global. */
export async function registerSlashCommands(
  rest: REST,
  applicationId: string,
  guildIds: readonly string[],
  commands: RESTPostAPIChatInputApplicationCommandsJSONBody[],
): Promise<void> {
  if (guildIds.length === 0) {
    await rest.put(Routes.applicationCommands(applicationId), { body: commands });
    return;
  }
  for (const guildId of guildIds) await rest.put(Routes.applicationGuildCommands(applicationId, guildId), { body: commands });
}
