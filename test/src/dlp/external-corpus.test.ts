import { describe, expect, it } from 'vitest';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { externalSamples, identifierKinds } from '../../support/dlp-external/index.js';
import { externalFigures, ratio, runExternal } from '../../support/dlp-external/measure.js';

// The scanner on the held-out corpus (secretlint's rule test snapshots, test/fixtures/dlp-external/secretlint/):
// floors at what it does today, to be raised as it improves, never a goal it misses yet. A failure names cases and
// kinds only, never a value.

const samples = externalSamples();
const figures = externalFigures(runExternal(samples, (text) => scanForCredentials(text)));

/** Share of credential samples caught, as measured on the branch start (83/106 = 0.783), rounded down. */
const overallFloor = 0.78;

/** Per secretlint kind, what is caught today (rounded down); kinds at 0 today have no floor. */
const kindFloors: Record<string, number> = {
  ANTHROPIC_API_KEY: 1,
  AWSAccessKeyID: 1,
  AWSSecretAccessKey: 1,
  AzureClientSecret: 0.5,
  BasicAuth: 0.42,
  GITHUB_TOKEN: 1,
  GITLAB_PERSONAL_ACCESS_TOKEN: 1,
  IncomingWebhook: 0.66,
  MongoDBConnection: 1,
  MySQLConnection: 1,
  NPM_ACCESS_TOKEN: 1,
  OPENAI_TOKEN: 1,
  PackageJSON_xOauthToken: 0.5,
  PostgreSQLConnection: 1,
  PrivateKey: 1,
  PrivateKeyJSON: 1,
  SENDGRID_KEY: 1,
  SLACK_TOKEN: 1,
};

/**
 * The clean cases blocked today, each a choice: an encrypted value (and base64 of words) under AWS and key labels,
 * which the scanner cannot tell from a secret; OpenAI-shaped keys ending in `test`, which the placeholder policy does
 * not excuse (a real token is never excused by a segment of it). Fixing one is welcome; a new one is a regression.
 */
const knownFalseBlocks = ['secretlint/aws/ok.AWS Secret Access Key', 'secretlint/openai/ok.valid'];

const misses = `\nmissed: ${figures.missed.map((miss) => `${miss.source} ${miss.kind} (${miss.context})`).join('; ')}`;

describe('DLP on the held-out secretlint corpus', () => {
  it('reads every case: secrets as whole files and in Thai sentences, and clean files', () => {
    expect(figures.overall.file.samples).toBeGreaterThanOrEqual(35);
    expect(figures.overall.thai.samples).toBeGreaterThanOrEqual(65);
    expect(figures.clean.samples).toBeGreaterThanOrEqual(20);
    expect(samples.filter((sample) => sample.context === 'thai').every((sample) => sample.text.startsWith('นี่คือค่าที่ขอครับ: '))).toBe(true);
    expect(samples.filter((sample) => sample.scope === 'identifier').every((sample) => sample.kind.split('+').every((kind) => identifierKinds.has(kind)))).toBe(
      true,
    );
  });

  it(`catches at least ${overallFloor * 100}% of the credential samples overall, whole files and Thai sentences alike`, () => {
    expect(figures.overall.all.rate, `caught ${ratio(figures.overall.all)}${misses}`).toBeGreaterThanOrEqual(overallFloor);
    expect(figures.overall.file.rate, `caught ${ratio(figures.overall.file)}${misses}`).toBeGreaterThanOrEqual(overallFloor);
    expect(figures.overall.thai.rate, `caught ${ratio(figures.overall.thai)}${misses}`).toBeGreaterThanOrEqual(overallFloor);
  });

  it('catches at least what it caught of each kind at the branch start', () => {
    const below = Object.entries(kindFloors)
      .filter(([kind, floor]) => (figures.byKind[kind]?.all.rate ?? 0) < floor)
      .map(([kind, floor]) => `${kind}: ${figures.byKind[kind] ? ratio(figures.byKind[kind].all) : 'no samples'} < ${floor}`);
    expect(below, misses).toEqual([]);
  });

  it(`blocks at most the ${knownFalseBlocks.length} clean cases it blocks today, and no other`, () => {
    const unexpected = figures.clean.failing.filter((failing) => !knownFalseBlocks.includes(failing.source));
    expect(unexpected.map((failing) => `${failing.source} (${failing.kinds.join(', ')})`)).toEqual([]);
    expect(figures.clean.blocked).toBeLessThanOrEqual(knownFalseBlocks.length);
  });
});
