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

/**
 * `draws`: one for the plain samples, one for the disguised ones, so adding a disguise never changes a plain sample
 * (nor the values: they come from a draw of their own).
 */
function samplesOfValue(format: CredentialFormat, value: string, draws: { plain: Draw; disguised: Draw }): Sample[] {
  const profile = kindProfiles[format.kind];
  const labelled = format.labelled === true;
  const block = value.includes('\n');
  const samples: Sample[] = [];
  const base = { kind: format.kind, format: format.name };
  for (const [context, put] of Object.entries(contexts)) {
    const placed = put({ value, profile, labelled, block, draw: draws.plain });
    if (placed) samples.push({ ...base, form: 'plain', context, ...placed });
  }
  const draw = draws.disguised;
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
      const values = new Draw(`${kind}/${format.name}`);
      const draws = { plain: new Draw(`${kind}/${format.name}/plain`), disguised: new Draw(`${kind}/${format.name}/disguised`) };
      return Array.from({ length: count }, () => samplesOfValue(format, format.make(values), draws)).flat();
    });
  });
}
