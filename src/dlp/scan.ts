import type { Localized } from '../shared/i18n.js';
import { pick } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';
import { credentialRules } from './credential-rules.js';
import { joinWrappedLines, normalizeForScan } from './normalize-text.js';

// The DLP scanner: every outgoing message (answers, errors, command replies, file contents) passes through it in
// src/outbound.ts, and the answer pipeline runs it last. A message with a credential is blocked whole; the result
// names the kinds only, never the secret.

export type CredentialScan = { found: false } | { found: true; kinds: string[] };

// Patterns run on windows of bounded length; the overlap is longer than the longest token any rule can match
// (a JWT of 2,000 + 8,000 + 2,000 characters), so no token is missed at a window edge.
export const windowLength = 65_536;
const windowOverlap = 16_384;

const notice: Localized = {
  th: '🔒 ข้อความนี้ถูกระงับ เพราะมีข้อมูลที่ดูเหมือนรหัสลับหรือกุญแจเข้าถึงระบบ (credential) จึงไม่ส่งออกเพื่อความปลอดภัย หากต้องการข้อมูลส่วนอื่น กรุณาถามใหม่โดยไม่ขอค่ารหัสลับ',
  en: '🔒 This message was blocked because it contained what looks like a secret or access credential, so it was not sent. Ask again without requesting the secret value if you need the rest.',
};

export function dlpNotice(language: Language): string {
  return pick(notice, language);
}

/** Where the windows of a text of this length start; each is `windowLength` long (the last may be shorter). */
export function windowStarts(length: number): number[] {
  const starts = [0];
  for (let start = windowLength - windowOverlap; start + windowOverlap < length; start += windowLength - windowOverlap) starts.push(start);
  return starts;
}

function* windows(text: string): Generator<string> {
  for (const start of windowStarts(text.length)) yield text.slice(start, start + windowLength);
}

function scanForm(form: string, kinds: Set<string>): void {
  for (const window of windows(form)) {
    for (const rule of credentialRules) {
      if (kinds.has(rule.kind)) continue;
      rule.pattern.lastIndex = 0;
      for (let match = rule.pattern.exec(window); match !== null; match = rule.pattern.exec(window)) {
        if (rule.accept(match, window)) {
          kinds.add(rule.kind);
          break;
        }
      }
    }
  }
}

/**
 * Looks for credentials in the text as written, after normalization (NFKC, zero-width characters, Markdown
 * escapes) and with wrapped lines joined; `secrets` are exact values (Saeng's own configuration) always blocked.
 */
export function scanForCredentials(text: string, options: { secrets?: readonly string[] } = {}): CredentialScan {
  const kinds = new Set<string>();
  const normalized = normalizeForScan(text);
  const joined = joinWrappedLines(normalized);
  const forms = joined === normalized ? [normalized] : [normalized, joined];
  for (const form of forms) scanForm(form, kinds);
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 8);
  if (secrets.some((secret) => text.includes(secret) || forms.some((form) => form.includes(secret)))) {
    kinds.add('configured-secret');
  }
  return kinds.size === 0 ? { found: false } : { found: true, kinds: [...kinds] };
}
