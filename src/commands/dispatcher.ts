import { escapeMarkdown } from '../shared/markdown.js';
import { say, type Localized } from '../shared/i18n.js';
import { logFailure, type Logger } from '../shared/log.js';
import type { InboundMessage, Language } from '../shared/types.js';
import { adminIdOf } from './admin-id.js';
import type { CommandContext, CommandHandler, CommandResult, ParsedCommand } from './command.js';

const unknownCommand: Localized = {
  th: 'ไม่รู้จักคำสั่ง /{name} พิมพ์ /help เพื่อดูคำสั่งที่ใช้ได้',
  en: 'Unknown command /{name}. Type /help to see the commands.',
};
const commandFailed: Localized = {
  th: 'ขออภัย คำสั่ง /{name} ทำงานไม่สำเร็จ กรุณาลองใหม่อีกครั้ง',
  en: 'Sorry, the command /{name} failed. Please try again.',
};

export class CommandDispatcher {
  private readonly handlers = new Map<string, CommandHandler>();

  constructor(
    handlers: readonly CommandHandler[],
    private readonly options: { adminIds: readonly string[]; language: Language; log: Logger; now?: () => Date },
  ) {
    for (const handler of handlers) this.handlers.set(handler.name, handler);
  }

  add(handler: CommandHandler): void {
    this.handlers.set(handler.name, handler);
  }

  get names(): ReadonlySet<string> {
    return new Set(this.handlers.keys());
  }

  list(): CommandHandler[] {
    return [...this.handlers.values()];
  }

  usesModel(name: string): boolean {
    return this.handlers.get(name)?.usesModel === true;
  }

  isGlobalAdmin(message: InboundMessage): boolean {
    return this.options.adminIds.includes(adminIdOf(message));
  }

  /**
   * `channel`: what the router binds to this message (progress notes, attachment downloads); `language`: the one its
   * space chose (/settings language), else BOT_LANGUAGE.
   */
  async run(
    command: ParsedCommand,
    message: InboundMessage,
    channel: Pick<CommandContext, 'progress' | 'download'>,
    language: Language = this.options.language,
  ): Promise<CommandResult> {
    const { log } = this.options;
    const handler = this.handlers.get(command.name);
    if (!handler) return { text: say(unknownCommand, language, { name: escapeMarkdown(command.name) }) };
    try {
      return await handler.run(command, {
        message,
        language,
        isGlobalAdmin: this.isGlobalAdmin(message),
        log,
        now: this.options.now ?? (() => new Date()),
        progress: channel.progress,
        download: channel.download,
      });
    } catch (error) {
      logFailure(log, 'error', { command: command.name }, 'command failed', error);
      return { text: say(commandFailed, language, { name: escapeMarkdown(command.name) }) };
    }
  }
}
