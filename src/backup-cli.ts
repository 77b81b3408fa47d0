import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { appVersion } from './backup/app-version.js';
import { cliTexts, skippedReasons } from './backup/cli-texts.js';
import { backupDataDir, BackupError, listBackups, restoreDataDir, type BackupManifest } from './backup/index.js';
import { manifestFileName } from './backup/manifest.js';
import { loadDotEnv } from './dotenv.js';
import { formatBytes } from './knowledge/index.js';
import { describeError } from './shared/describe-error.js';
import { say } from './shared/i18n.js';
import type { Language } from './shared/types.js';
import { loadConfigOrExit, startupLanguage } from './startup-checks.js';

// `npm run backup -- <folder>`, `npm run restore -- <backup folder>`, `tsx src/backup-cli.ts list <folder>`.
// DATA_DIR, BOT_LANGUAGE and BOT_TIMEZONE come from the environment and .env, as for `npm start`.
// Exit 0 when done, 1 when it failed (the message names what), 2 for usage errors.

const commands = ['backup', 'restore', 'list'] as const;
type Command = (typeof commands)[number];

interface Settings {
  dataDir: string;
  language: Language;
  timeZone: string;
}

function isCommand(value: string): value is Command {
  return (commands as readonly string[]).includes(value);
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function usageError(problem: string, language: Language): number {
  process.stderr.write(`${problem}\n${say(cliTexts.usage, language)}\n`);
  return 2;
}

function localTime(iso: string, timeZone: string): string {
  // sv-SE writes YYYY-MM-DD HH:MM:SS, readable in both languages.
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
}

function totalSize(manifest: BackupManifest): string {
  return formatBytes(manifest.files.reduce((sum, file) => sum + file.size, 0));
}

async function backup(folder: string, settings: Settings): Promise<number> {
  const { language } = settings;
  const { folder: written, manifest } = await backupDataDir(settings.dataDir, folder, { appVersion: appVersion(), timeZone: settings.timeZone });
  print(say(cliTexts.backupDone, language, { folder: written }));
  const names = manifest.databases.map((database) => database.path).join(', ');
  print(say(cliTexts.backupSummary, language, { files: manifest.files.length, size: totalSize(manifest), databases: manifest.databases.length, names }));
  for (const entry of manifest.skipped) print(say(cliTexts.skipped, language, { path: entry.path, reason: say(skippedReasons[entry.reason], language) }));
  const damaged = manifest.databases.filter((database) => database.integrity !== 'ok');
  if (damaged.length > 0) {
    for (const database of damaged) process.stderr.write(`${say(cliTexts.databaseDamaged, language, { file: database.path, result: database.integrity })}\n`);
    return 1;
  }
  print(say(cliTexts.databasesChecked, language));
  print(say(cliTexts.restoreHint, language, { folder: written }));
  return 0;
}

async function restore(folder: string, settings: Settings): Promise<number> {
  const { language } = settings;
  try {
    const { manifest, dataDir, setAside } = await restoreDataDir(folder, settings.dataDir, { timeZone: settings.timeZone });
    print(say(cliTexts.restored, language, { backup: folder, created: localTime(manifest.createdAt, settings.timeZone), version: manifest.version }));
    print(say(cliTexts.restoredInto, language, { dataDir, files: manifest.files.length }));
    if (setAside) print(say(cliTexts.setAside, language, { aside: setAside }));
    print(say(cliTexts.startAgain, language));
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError) || existsSync(path.join(folder, manifestFileName))) throw error;
    // The folder that holds the backups was given instead of one backup: say which to pick.
    const usable = existsSync(folder) ? (await listBackups(folder)).filter((listed) => 'manifest' in listed) : [];
    const newest = usable.at(-1);
    if (!newest) throw error;
    process.stderr.write(`${say(cliTexts.restoreFailed, language, { problem: error.describe(language) })}\n`);
    process.stderr.write(`${say(cliTexts.backupsHere, language, { count: usable.length, newest: newest.folder })}\n`);
    return 1;
  }
}

async function list(folder: string, settings: Settings): Promise<number> {
  const { language, timeZone } = settings;
  if (!existsSync(folder)) throw new BackupError(cliTexts.folderMissing, { folder });
  const listed = await listBackups(folder);
  if (listed.length === 0) {
    print(say(cliTexts.listEmpty, language, { folder }));
    return 0;
  }
  print(say(cliTexts.listHeading, language, { folder, count: listed.length }));
  for (const entry of listed) {
    const name = path.basename(entry.folder);
    if ('problem' in entry) {
      print(say(cliTexts.listBroken, language, { name, problem: entry.problem.describe(language) }));
      continue;
    }
    const { manifest } = entry;
    print(
      say(cliTexts.listEntry, language, {
        name,
        created: localTime(manifest.createdAt, timeZone),
        version: manifest.version,
        files: manifest.files.length,
        size: totalSize(manifest),
      }),
    );
  }
  return 0;
}

const failureTexts = { backup: cliTexts.backupFailed, restore: cliTexts.restoreFailed, list: cliTexts.listFailed } as const;

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  const early = startupLanguage();
  let positionals: string[];
  try {
    const parsed = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h', default: false } } });
    if (parsed.values.help) {
      print(say(cliTexts.usage, early));
      return 0;
    }
    positionals = parsed.positionals;
  } catch (error) {
    return usageError(describeError(error), early);
  }
  const [command, folder, ...extra] = positionals;
  if (command === undefined) return usageError(say(cliTexts.missingCommand, early), early);
  if (!isCommand(command)) return usageError(say(cliTexts.unknownCommand, early, { command }), early);
  if (folder === undefined || folder.trim() === '') return usageError(say(cliTexts.missingFolder, early), early);
  if (extra.length > 0) return usageError(say(cliTexts.tooManyArguments, early, { extra: extra.join(' ') }), early);

  const config = loadConfigOrExit();
  const settings: Settings = { dataDir: path.resolve(config.DATA_DIR), language: config.BOT_LANGUAGE, timeZone: config.BOT_TIMEZONE };
  const run = { backup, restore, list }[command];
  try {
    // npm runs scripts in the project folder; a relative folder means one from where the command was typed.
    return await run(path.resolve(process.env.INIT_CWD ?? process.cwd(), folder), settings);
  } catch (error) {
    const problem = error instanceof BackupError ? error.describe(settings.language) : describeError(error);
    process.stderr.write(`${say(failureTexts[command], settings.language, { problem })}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
