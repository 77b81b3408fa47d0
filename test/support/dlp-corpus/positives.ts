import { contexts, obfuscationContexts } from './contexts.js';
import { Draw } from './draw.js';
import type { CredentialFormat } from './format.js';
import { platformFormats } from './formats-platform.js';
import { structuredFormats } from './formats-structured.js';
import { vendorFormats } from './formats-vendor.js';
import { kindProfiles } from './kind-profiles.js';
import { obfuscations } from './obfuscations.js';
import { obfuscationForms, positiveKinds, type Sample } from './sample.js';

// Positives: fresh values of every published format, each in every context that fits it, and each disguised in
// every obfuscation that applies, written in the answer sentences (and bare labels for prefix-less values).

export const credentialFormats: readonly CredentialFormat[] = [...vendorFormats, ...platformFormats, ...structuredFormats];

/** At least this many distinct values per kind, and at least three per format. */
const valuesPerKind = 8;
const valuesPerFormat = 3;

function samplesOfValue(format: CredentialFormat, value: string, draw: Draw): Sample[] {
  const profile = kindProfiles[format.kind];
  const labelled = format.labelled === true;
  const block = value.includes('\n');
  const samples: Sample[] = [];
  const base = { kind: format.kind, format: format.name };
  for (const [context, put] of Object.entries(contexts)) {
    const placed = put({ value, profile, labelled, block, draw });
    if (placed) samples.push({ ...base, form: 'plain', context, ...placed });
  }
  for (const form of obfuscationForms) {
    const disguised = obfuscations[form](value, draw);
    if (disguised === undefined) continue;
    for (const context of obfuscationContexts) {
      const placed = contexts[context]?.({ value: disguised, profile, labelled, block, draw });
      if (placed) samples.push({ ...base, form, context, ...placed });
    }
  }
  return samples;
}

export function positiveSamples(): Sample[] {
  return positiveKinds.flatMap((kind) => {
    const formats = credentialFormats.filter((format) => format.kind === kind);
    if (formats.length === 0) throw new Error(`no format generates ${kind}`);
    const count = Math.max(valuesPerFormat, Math.ceil(valuesPerKind / formats.length));
    return formats.flatMap((format) => {
      const draw = new Draw(`${kind}/${format.name}`);
      return Array.from({ length: count }, () => samplesOfValue(format, format.make(draw), draw)).flat();
    });
  });
}
