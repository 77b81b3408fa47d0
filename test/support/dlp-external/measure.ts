import type { ExternalSample } from './index.js';

// Figures of a scanner on the held-out corpus: the share of secret samples caught, per secretlint kind and
// overall (credentials only; account and tenant ids apart), and the clean cases blocked. Outcomes name the case and
// the kinds the scanner reported, never the text: nothing here prints a secret.

export type Scan = (text: string) => { found: boolean; kinds?: readonly string[] };

export interface Tally {
  caught: number;
  samples: number;
  rate: number;
}

export interface ExternalOutcome {
  sample: ExternalSample;
  found: boolean;
  kinds: readonly string[];
}

export interface ExternalFigures {
  /** Credential samples per secretlint kind: the whole file, the finding in a Thai sentence, both. */
  byKind: Record<string, { file: Tally; thai: Tally; all: Tally }>;
  overall: { file: Tally; thai: Tally; all: Tally };
  /** Findings that name an account or tenant (identifierKinds): reported apart, not in the overall rate. */
  identifiers: Tally;
  clean: { blocked: number; samples: number; failing: { source: string; kinds: readonly string[] }[] };
  /** Credential samples not caught: case, kind and context only. */
  missed: { source: string; kind: string; context: ExternalSample['context'] }[];
}

export function runExternal(samples: readonly ExternalSample[], scan: Scan): ExternalOutcome[] {
  return samples.map((sample) => {
    const result = scan(sample.text);
    return { sample, found: result.found, kinds: result.kinds ?? [] };
  });
}

function tally(outcomes: readonly ExternalOutcome[]): Tally {
  const caught = outcomes.filter((outcome) => outcome.found).length;
  return { caught, samples: outcomes.length, rate: outcomes.length === 0 ? 1 : caught / outcomes.length };
}

const split = (outcomes: readonly ExternalOutcome[]) => ({
  file: tally(outcomes.filter((outcome) => outcome.sample.context === 'file')),
  thai: tally(outcomes.filter((outcome) => outcome.sample.context === 'thai')),
  all: tally(outcomes),
});

export function externalFigures(outcomes: readonly ExternalOutcome[]): ExternalFigures {
  const secrets = outcomes.filter((outcome) => outcome.sample.expected === 'secret');
  const credentials = secrets.filter((outcome) => outcome.sample.scope === 'credential');
  const kinds = [...new Set(credentials.map((outcome) => outcome.sample.kind))].sort();
  const clean = outcomes.filter((outcome) => outcome.sample.expected === 'clean');
  const blocked = clean.filter((outcome) => outcome.found);
  return {
    byKind: Object.fromEntries(kinds.map((kind) => [kind, split(credentials.filter((outcome) => outcome.sample.kind === kind))])),
    overall: split(credentials),
    identifiers: tally(secrets.filter((outcome) => outcome.sample.scope === 'identifier')),
    clean: {
      blocked: blocked.length,
      samples: clean.length,
      failing: blocked.map((outcome) => ({ source: outcome.sample.source, kinds: outcome.kinds })),
    },
    missed: credentials
      .filter((outcome) => !outcome.found)
      .map((outcome) => ({ source: outcome.sample.source, kind: outcome.sample.kind, context: outcome.sample.context })),
  };
}

/** `caught/samples` */
export const ratio = (value: { caught: number; samples: number } | { blocked: number; samples: number }) =>
  `${'caught' in value ? value.caught : value.blocked}/${value.samples}`;
