import { parseArgs } from 'node:util';
import { consoleMessage, createConsoleAdapter, renderConsoleReply } from '../adapters/console/index.js';
import { consoleOwnerId, createApp } from './app.js';
import { connectSharedServers, SharedServerError } from './shared-servers.js';
import { configSecrets } from './config.js';
import { createLogRedactor } from './dlp/redact-credentials.js';
import { loadDotEnv } from './dotenv.js';
import { createLogger } from './shared/log.js';
import type { Reply } from './shared/types.js';
import { describeError } from './shared/describe-error.js';
import { ensureDataDirOrExit, loadConfigOrExit, openAppOrExit, startupLanguage } from './startup-checks.js';
import { say, type Localized } from './shared/i18n.js';

// `npm run -s cli -- ask "<text>" [--attach PATH]… [--conversation KEY] [--user ID] [--group] [--mention] [--json]`
// Exit 0 when a reply was produced or the message was deliberately ignored; 1 when it cannot start (a bad
// variable, an unusable DATA_DIR) or fails; 2 for usage errors only. Without --conversation each user has a
// history of its own (`cli:<user>`), apart from the console chat's.

const usage = `usage: npm run -s cli -- ask "<text>" [--attach PATH]… [--conversation KEY] [--user ID] [--group] [--mention] [--json]`;

const problems = {
  missingCommand: { th: 'ไม่ได้ระบุคำสั่ง (ใช้ ask)', en: 'missing command (use ask)' },
  unknownCommand: { th: 'ไม่รู้จักคำสั่ง: {verb} (ใช้ ask)', en: 'unknown command: {verb} (use ask)' },
  missingText: { th: 'ไม่มีข้อความที่จะถาม', en: 'missing text' },
  unreadableAttachment: { th: 'อ่านไฟล์แนบไม่ได้: {problem}', en: 'cannot read attachment: {problem}' },
  badOption: { th: 'ตัวเลือกไม่ถูกต้อง: {problem}', en: 'bad option: {problem}' },
  ignored: { th: '(ไม่ได้ตอบ: {reason})', en: '(ignored: {reason})' },
} satisfies Record<string, Localized>;

function usageError(problem: Localized, values: Record<string, string> = {}): never {
  process.stderr.write(`${say(problem, startupLanguage(), values)}\n${usage}\n`);
  process.exit(2);
}

// A reader that stops early (`| head`) is not a failure of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

async function main(argv: string[]): Promise<void> {
  loadDotEnv(); // first: BOT_LANGUAGE in .env also decides the language of a usage error
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        attach: { type: 'string', multiple: true },
        conversation: { type: 'string' },
        user: { type: 'string' },
        group: { type: 'boolean', default: false },
        mention: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    usageError(problems.badOption, { problem: describeError(error) });
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const [verb, ...words] = positionals;
  if (verb !== 'ask') usageError(verb ? problems.unknownCommand : problems.missingCommand, { verb: verb ?? '' });
  const text = words.join(' ');
  if (text.trim() === '' && !values.attach?.length) usageError(problems.missingText);

  const config = loadConfigOrExit();
  ensureDataDirOrExit(config);
  // Logs go to stderr as JSON so stdout stays the reply (or the --json document).
  const log = createLogger({
    level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL,
    destination: process.stderr,
    redact: createLogRedactor(configSecrets(config)),
  });

  const userId = values.user ?? consoleOwnerId;
  let message;
  try {
    message = await consoleMessage({
      text,
      attachmentPaths: values.attach ?? [],
      conversation: values.conversation?.trim() || `cli:${userId}`,
      userId,
      group: values.group,
      mention: values.mention,
    });
  } catch (error) {
    usageError(problems.unreadableAttachment, { problem: describeError(error) });
  }

  // The console adapter is not started (no chat): it only reads the attached files for the router.
  const consoleAdapter = createConsoleAdapter({ userId: message.sender.id, language: config.BOT_LANGUAGE });
  // The same shared servers as the bot, so `ask` sees the knowledge bases and history the bot has.
  const shared = await connectSharedServers(config, log).catch((error: unknown) => {
    if (error instanceof SharedServerError) {
      process.stderr.write(`${error.describe(config.BOT_LANGUAGE)}\n`);
      process.exit(1);
    }
    throw error;
  });
  const app = openAppOrExit(() => createApp({ config, log, adapters: [consoleAdapter], redis: shared.redis }), config.BOT_LANGUAGE);
  try {
    const progressNotes: string[] = [];
    const handled = await app.router.handle(message, {
      send: async (reply: Reply) => {
        if (!values.json)
          process.stdout.write(`${renderConsoleReply(reply, { color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }, config.BOT_LANGUAGE)}\n`);
      },
      progress: async (event) => {
        if (values.json) progressNotes.push(event.text);
        else process.stderr.write(`… ${event.text}\n`);
      },
    });
    if (values.json) {
      const capabilities = handled.turn?.capabilities ?? (await app.capabilities.current());
      const document = {
        admission: handled.admission.kind === 'command' ? { kind: 'command', reason: 'command' } : handled.admission,
        replies: handled.replies.map((reply) => ({ text: reply.text, files: reply.files.map((file) => file.path) })),
        toolCalls: (handled.turn?.toolCalls ?? []).map((call) => ({ name: call.name, arguments: call.args ?? call.argumentsText, ok: call.ok })),
        guards: (handled.turn?.guardEvents ?? []).map(({ guard, action, reason }) => ({ guard, action, reason })),
        capabilities,
        rag: handled.turn?.rag ?? (await app.agent.ragMode(capabilities, message.conversationKey)),
        progress: progressNotes,
      };
      process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    } else if (handled.admission.kind === 'ignore') {
      process.stderr.write(`${say(problems.ignored, config.BOT_LANGUAGE, { reason: handled.admission.reason })}\n`);
    }
  } finally {
    await app.close();
    await shared.close();
  }
}

await main(process.argv.slice(2));
