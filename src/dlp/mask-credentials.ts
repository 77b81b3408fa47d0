import { contextSecretRanges } from './context-secrets.js';
import { credentialRanges, mergedRanges, withRangesRedacted, type Range } from './redact-credentials.js';
import { scanForCredentials } from './scan.js';

// Masking for text Saeng keeps and hands on later (knowledge-base documents): where the outbound scanner blocks a
// whole message, a stored document keeps its words and loses only its credentials, each replaced by
// `[redacted:<kind>]` as in the log. Found and masked: the scanner's format rules, labelled values (`password: …`)
// and Saeng's configured secrets. What the scanner still finds afterwards (a token hidden by look-alike letters,
// zero-width characters or a line break) has no place in the text to mask: it is reported as `unmasked`.

export interface MaskedText {
  text: string;
  /** How many values of each kind were masked. */
  masked: Record<string, number>;
  /** Credential kinds the scanner still finds in the masked text (they could not be located); empty when none. */
  unmasked: string[];
}

function overlaps(ranges: readonly Range[], start: number, end: number): boolean {
  return ranges.some((range) => range.start < end && range.end > start);
}

export function maskCredentials(text: string, secrets: readonly string[] = []): MaskedText {
  const byFormat = credentialRanges(text, secrets);
  const labelled = contextSecretRanges(text, (start, end) => overlaps(byFormat, start, end));
  const ranges = labelled.length === 0 ? byFormat : mergedRanges([...byFormat, ...labelled]);
  const masked: Record<string, number> = {};
  for (const range of ranges) masked[range.kind] = (masked[range.kind] ?? 0) + 1;
  const maskedText = withRangesRedacted(text, ranges);
  const residual = scanForCredentials(maskedText, { secrets });
  return { text: maskedText, masked, unmasked: residual.found ? residual.kinds : [] };
}
