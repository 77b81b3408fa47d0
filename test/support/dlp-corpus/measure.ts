import { obfuscationForms, positiveKinds, thaiProseClasses, type Sample, type SampleForm } from './sample.js';

// Runs a scanner over the corpus and turns the outcomes into the figures (recall per kind and form,
// false blocks per negative class) and a compact report with the secret part of every shown sample masked.

export type Scanner = (text: string) => { found: boolean; kinds?: readonly string[] };

export interface Outcome {
  sample: Sample;
  blocked: boolean;
  kinds: readonly string[];
}

export interface Ratio {
  samples: number;
  blocked: number;
  rate: number;
}

export const goals = { plainOverall: 0.99, plainPerKind: 0.95, perObfuscatedForm: 0.95, falseBlocksOverall: 0.002, falseBlocksThaiProse: 0 } as const;

export function runCorpus(samples: readonly Sample[], scan: Scanner): Outcome[] {
  return samples.map((sample) => {
    const result = scan(sample.text);
    return { sample, blocked: result.found, kinds: result.found ? (result.kinds ?? []) : [] };
  });
}

function ratio(outcomes: readonly Outcome[]): Ratio {
  const blocked = outcomes.filter((outcome) => outcome.blocked).length;
  return { samples: outcomes.length, blocked, rate: outcomes.length === 0 ? 1 : blocked / outcomes.length };
}

function groupBy<K extends string>(outcomes: readonly Outcome[], keys: readonly K[], key: (outcome: Outcome) => string): Record<K, Ratio> {
  return Object.fromEntries(keys.map((name) => [name, ratio(outcomes.filter((outcome) => key(outcome) === name))])) as Record<K, Ratio>;
}

export function corpusFigures(outcomes: readonly Outcome[]) {
  const positives = outcomes.filter((outcome) => outcome.sample.kind !== 'negative');
  const plain = positives.filter((outcome) => outcome.sample.form === 'plain');
  const obfuscated = positives.filter((outcome) => outcome.sample.form !== 'plain');
  const negatives = outcomes.filter((outcome) => outcome.sample.kind === 'negative');
  const classes = [...new Set(negatives.map((outcome) => outcome.sample.context))];
  const forms = obfuscationForms.filter((form) => obfuscated.some((outcome) => outcome.sample.form === form));
  return {
    plain: { overall: ratio(plain), byKind: groupBy(plain, positiveKinds, (outcome) => outcome.sample.kind) },
    obfuscated: { overall: ratio(obfuscated), byForm: groupBy(obfuscated, forms, (outcome) => outcome.sample.form) },
    negatives: {
      falseBlocks: ratio(negatives),
      thaiProse: ratio(negatives.filter((outcome) => thaiProseClasses.includes(outcome.sample.context))),
      byClass: groupBy(negatives, classes, (outcome) => outcome.sample.context),
    },
  };
}

export type CorpusFigures = ReturnType<typeof corpusFigures>;

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** Kinds as rows, plain and each obfuscated form as columns; "·" where the form does not apply to the kind. */
export function recallTable(outcomes: readonly Outcome[]): string {
  const forms: SampleForm[] = ['plain', ...obfuscationForms];
  const header = ['kind'.padEnd(26), ...forms.map((form) => form.slice(0, 9).padStart(9))].join(' ');
  const rows = positiveKinds.map((kind) => {
    const ofKind = outcomes.filter((outcome) => outcome.sample.kind === kind);
    const cells = forms.map((form) => {
      const cell = ofKind.filter((outcome) => outcome.sample.form === form);
      return (cell.length === 0 ? '·' : percent(ratio(cell).rate)).padStart(9);
    });
    return [kind.padEnd(26), ...cells].join(' ');
  });
  return [header, ...rows].join('\n');
}

/** The sample's text with the credential masked: its first 6 characters kept, every other letter or digit a •. */
export function maskedText(sample: Sample, limit = 180): string {
  let text = sample.text;
  if (sample.secret) {
    const masked = sample.secret.slice(0, 6) + sample.secret.slice(6).replace(/[A-Za-z0-9\uff10-\uff5a]/g, '•');
    text = text.replace(sample.secret, masked);
  }
  const shown = JSON.stringify(text);
  return shown.length > limit ? `${shown.slice(0, limit)}…"` : shown;
}

function describeOutcome(outcome: Outcome): string {
  const { kind, form, context, format } = outcome.sample;
  const label = kind === 'negative' ? `negative/${context} → blocked as ${outcome.kinds.join(', ')}` : `${kind}/${format ?? ''} ${form} in ${context}`;
  return `  ${label}: ${maskedText(outcome.sample)}`;
}

/** The table, then the first misses of each kind and form and the first false blocks of each negative class. */
export function corpusReport(outcomes: readonly Outcome[], examplesPerGroup = 1): string {
  const shown = new Map<string, number>();
  const examples: string[] = [];
  for (const outcome of outcomes) {
    const negative = outcome.sample.kind === 'negative';
    if (negative !== outcome.blocked) continue;
    const group = negative ? `negative/${outcome.sample.context}` : `${outcome.sample.kind}/${outcome.sample.form}`;
    const count = shown.get(group) ?? 0;
    shown.set(group, count + 1);
    if (count < examplesPerGroup) examples.push(describeOutcome(outcome));
  }
  return [recallTable(outcomes), '', 'misses and false blocks (first of each group):', ...examples.slice(0, 60)].join('\n');
}
