import { Draw } from './draw.js';
import { proseClasses, xquadSamples } from './negatives-prose.js';
import { technicalClasses } from './negatives-technical.js';
import { positiveSamples } from './positives.js';
import type { Sample } from './sample.js';

// The DLP corpus, built as an outside tester would: generated positives of every kind in every context and
// disguise, and negatives from real Thai prose and the technical strings an answer legitimately carries.
// Deterministic: the same samples, in the same order, on every run.

export { positiveKinds, obfuscationForms, thaiProseClasses, type Sample, type SampleForm, type PositiveKind } from './sample.js';

export function negativeSamples(): Sample[] {
  const generated = Object.entries({ ...proseClasses, ...technicalClasses }).flatMap(([context, make]) =>
    make(new Draw(`negative/${context}`)).map((text): Sample => ({ kind: 'negative', form: 'plain', context, text })),
  );
  return [...xquadSamples(), ...generated];
}

let cached: readonly Sample[] | undefined;

export function dlpCorpus(): readonly Sample[] {
  cached ??= [...positiveSamples(), ...negativeSamples()];
  return cached;
}
