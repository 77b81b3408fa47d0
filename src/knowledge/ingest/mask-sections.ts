import { maskCredentials } from '../../dlp/mask-credentials.js';
import type { TextSection } from './extract/extract-text.js';

// A document's credentials are masked before it is chunked, embedded or stored: a token in a knowledge base would
// otherwise reach the model (and a remote embeddings server) with every passage that holds it, and users by any
// path the final scan misses. Masked, not refused: the rest of a runbook or a config guide is still worth having.

export type MaskedSections =
  | { ok: true; sections: TextSection[]; masked: Record<string, number> }
  /** The scanner still finds credentials it cannot locate (hidden by look-alike or invisible characters). */
  | { ok: false; kinds: string[] };

export function maskSections(sections: readonly TextSection[], secrets: readonly string[]): MaskedSections {
  const masked: Record<string, number> = {};
  const unmasked = new Set<string>();
  const out = sections.map((section) => {
    const result = maskCredentials(section.text, secrets);
    for (const [kind, count] of Object.entries(result.masked)) masked[kind] = (masked[kind] ?? 0) + count;
    result.unmasked.forEach((kind) => unmasked.add(kind));
    return { ...section, text: result.text };
  });
  return unmasked.size > 0 ? { ok: false, kinds: [...unmasked] } : { ok: true, sections: out, masked };
}
