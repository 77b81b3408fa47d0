import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadDotEnv } from './dotenv.js';
import { copyTexts } from './knowledge/copy-texts.js';
import { copyKnowledgeToPostgres, databaseAddress, PostgresConnectionError, vacuumAfterBulkLoad } from './knowledge/index.js';
import { describeError } from './shared/describe-error.js';
import { say } from './shared/i18n.js';
import { loadConfigOrExit, startupLanguage } from './startup-checks.js';

// `npm run kb-to-postgres [-- --replace]`: the knowledge bases of DATA_DIR/knowledge.db into DATABASE_URL.
// DATA_DIR, DATABASE_URL and BOT_LANGUAGE come from the environment and .env, as for `npm start`.
// Exit 0 when copied, 1 when it failed or the target already holds knowledge bases, 2 for usage errors.

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

function complain(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(argv: string[]): Promise<number> {
  loadDotEnv();
  const early = startupLanguage();
  let replace: boolean;
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { replace: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
    if (parsed.values.help) {
      print(say(copyTexts.usage, early));
      return 0;
    }
    if (parsed.positionals.length > 0) {
      complain(`${say(copyTexts.unexpectedArguments, early, { extra: parsed.positionals.join(' ') })}\n${say(copyTexts.usage, early)}`);
      return 2;
    }
    replace = parsed.values.replace;
  } catch (error) {
    complain(`${describeError(error)}\n${say(copyTexts.usage, early)}`);
    return 2;
  }

  const config = loadConfigOrExit();
  const language = config.BOT_LANGUAGE;
  const databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    complain(say(copyTexts.missingDatabaseUrl, language));
    return 2;
  }
  const file = path.join(path.resolve(config.DATA_DIR), 'knowledge.db');
  const address = databaseAddress(databaseUrl);
  try {
    const result = await copyKnowledgeToPostgres({ sqlitePath: file, databaseUrl, replace });
    if (result.ok) {
      // As an operator would after a bulk load: without it searches read the heap per posting row until autovacuum
      // runs. The copy is done either way, so a failed VACUUM only leaves that to autovacuum.
      await vacuumAfterBulkLoad(databaseUrl).catch(() => undefined);
      print(say(copyTexts.copied, language, { file, address, ...result.counts }));
      print(say(copyTexts.nextStep, language));
      return 0;
    }
    if (result.reason === 'no-sqlite-file') complain(say(copyTexts.noSqliteFile, language, { file }));
    else complain(say(copyTexts.targetNotEmpty, language, { address, count: result.existing.length, names: result.existing.join(', ') }));
    return 1;
  } catch (error) {
    // Connection failures in plain words; anything else by its message, with the address in place of the URL.
    const problem = error instanceof PostgresConnectionError ? error.describe(language) : describeError(error).split(databaseUrl).join(address);
    complain(say(copyTexts.failed, language, { problem }));
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
