import { credentialRules } from '../src/dlp/credential-rules.js';

// The baseline measured in the same run: the same format rules, run once on the text as written — no
// normalization forms, no labelled-secret detection — i.e. what a plain regex scanner with these rules catches and
// costs. The difference to scanForCredentials is what the forms and the context detection buy.

export function formatRulesOnly(text: string): { found: boolean; kinds: string[] } {
  const kinds = new Set<string>();
  const lower = text.toLowerCase();
  for (const rule of credentialRules) {
    if (kinds.has(rule.kind) || !rule.literals.some((literal) => lower.includes(literal))) continue;
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(text); match !== null; match = rule.pattern.exec(text)) {
      if (rule.accept(match, text)) {
        kinds.add(rule.kind);
        break;
      }
    }
  }
  return { found: kinds.size > 0, kinds: [...kinds] };
}
