import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

// The held-out DLP corpus: public fixture data the project did not write and the generator of
// test/support/dlp-corpus/ never saw — secretlint's rule test snapshots (MIT), committed under
// test/fixtures/dlp-external/secretlint/ with their licence and a README of what was taken.
//
// Each snapshot case is a folder holding one input file and the output.json secretlint expects for it. A case with
// findings gives one sample of the whole file (an answer carrying the file) and one sample per finding: the
// finding's range, wrapped in a Thai sentence. A case without findings gives one clean sample of the whole file.
// The truth is secretlint's: its output.json, not the folder's ng/ok prefix (ng.basic-auth-ftps-url expects none).

export type ExternalExpectation = 'secret' | 'clean';

/** A finding secretlint reports that names an account or tenant rather than a credential: not what Saeng blocks. */
export const identifierKinds: ReadonlySet<string> = new Set(['AWSAccountID', 'AzureTenantId', 'AzureClientId']);

export interface ExternalSample {
  /** Where it comes from: `secretlint/<rule>/<case>`. */
  source: string;
  /** The secretlint rule, e.g. `aws`. */
  rule: string;
  /**
   * What secretlint calls the finding (its messageId, e.g. `GITHUB_TOKEN`; for a whole file with findings of
   * several kinds, its first finding's); for a clean sample, the rule.
   */
  kind: string;
  expected: ExternalExpectation;
  /** `file`: the whole input as the message; `thai`: one finding in a Thai sentence. */
  context: 'file' | 'thai';
  /** `identifier` when every finding is an account or tenant id (identifierKinds), else `credential`. */
  scope: 'credential' | 'identifier';
  text: string;
}

export const fixtureRoot = path.resolve(import.meta.dirname, '../../fixtures/dlp-external');

const snapshotSchema = z.object({
  filePath: z.string(),
  messages: z.array(z.object({ messageId: z.string(), range: z.tuple([z.number().int(), z.number().int()]) })),
  sourceContent: z.string(),
});

/** The Thai sentence a finding is wrapped in, as an answer handing the value over would say it. */
export function inThaiSentence(secret: string): string {
  return `นี่คือค่าที่ขอครับ: ${secret} ใช้ได้เลย`;
}

function caseSamples(rule: string, caseName: string, folder: string): ExternalSample[] {
  const snapshot = snapshotSchema.parse(JSON.parse(readFileSync(path.join(folder, 'output.json'), 'utf8')));
  const inputName = path.posix.basename(snapshot.filePath);
  const text = readFileSync(path.join(folder, inputName), 'utf8');
  if (text !== snapshot.sourceContent) throw new Error(`${rule}/${caseName}: ${inputName} differs from output.json's sourceContent`);
  const source = `secretlint/${rule}/${caseName}`;
  if (snapshot.messages.length === 0) return [{ source, rule, kind: rule, expected: 'clean', context: 'file', scope: 'credential', text }];
  const scopeOf = (kinds: readonly string[]) => (kinds.every((kind) => identifierKinds.has(kind)) ? 'identifier' : 'credential');
  const kinds = [...new Set(snapshot.messages.map((message) => message.messageId))];
  const whole: ExternalSample = { source, rule, kind: kinds[0] ?? rule, expected: 'secret', context: 'file', scope: scopeOf(kinds), text };
  const findings = snapshot.messages.map((message): ExternalSample => ({
    source,
    rule,
    kind: message.messageId,
    expected: 'secret',
    context: 'thai',
    scope: scopeOf([message.messageId]),
    text: inThaiSentence(text.slice(message.range[0], message.range[1])),
  }));
  return [whole, ...findings];
}

const folders = (parent: string) =>
  readdirSync(parent, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

let cached: readonly ExternalSample[] | undefined;

/** Every sample of the held-out corpus, in a stable order (rule, then case, then finding). */
export function externalSamples(): readonly ExternalSample[] {
  const root = path.join(fixtureRoot, 'secretlint');
  cached ??= folders(root).flatMap((rule) =>
    folders(path.join(root, rule)).flatMap((caseName) => caseSamples(rule, caseName, path.join(root, rule, caseName))),
  );
  return cached;
}
