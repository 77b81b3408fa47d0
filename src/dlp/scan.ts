import type { Localized } from '../shared/i18n.js';
import { pick } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';
import { contextSecretKinds } from './context-secrets.js';
import { credentialRules } from './credential-rules.js';
import { LiteralFinder } from './literal-finder.js';
import type { CredentialRule } from './rules/rule.js';
import { scanForms } from './normalize-forms.js';
import { secretVariants } from './normalize-reversed.js';

// The DLP scanner: every outgoing message (answers, errors, command replies, file contents) passes through it in
// src/pipeline/outbound.ts, and the answer pipeline runs it last. A message with a credential is blocked whole; the result
// names the kinds only, never the secret.

export type CredentialScan = { found: false } | { found: true; kinds: string[] };

// The label search runs on windows of bounded length; the overlap is longer than the longest token any rule can match
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

const ruleLiterals = new LiteralFinder(credentialRules.flatMap((rule) => rule.literals));

/** A rule can only match where one of its literals occurs: most rules are skipped on ordinary text. */
function mayMatch(rule: CredentialRule, presentLiterals: ReadonlySet<string>): boolean {
  return rule.literals.length === 0 || rule.literals.some((literal) => presentLiterals.has(literal));
}

/** Clues past this many in one form: the rule runs over the whole form (still linear), not span by span. */
const maximumClueSpans = 1_000;

/** Where a rule with clues can match in `text`: merged spans around its clues; undefined means everywhere. */
function clueSpans(near: NonNullable<CredentialRule['near']>, text: string): { start: number; end: number }[] | undefined {
  const spans: { start: number; end: number }[] = [];
  const add = (start: number, end: number) => spans.push({ start: Math.max(0, start - near.reach), end: end + near.reach });
  for (const clue of near.clues) {
    clue.lastIndex = 0;
    for (let match = clue.exec(text); match !== null; match = clue.exec(text)) {
      if (spans.length >= maximumClueSpans) return undefined;
      add(match.index, match.index + match[0].length);
      if (match[0].length === 0) clue.lastIndex++;
    }
  }
  spans.sort((left, right) => left.start - right.start);
  const merged: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** Text kept around a clue span for lookbehinds and `accept`, which read at most a few hundred characters around a match. */
const clueContext = 1_024;

/** True when the rule accepts a match in `text` (a match starting inside one of its clue spans, when it has clues). */
function ruleFinds(rule: CredentialRule, text: string): boolean {
  const spans = rule.near ? clueSpans(rule.near, text) : undefined;
  if (!spans) return acceptedIn(rule, text, 0, text.length);
  // A slice per span: an exec from inside the whole text would run on to the text's end when the span has no match.
  return spans.some((span) => {
    const from = Math.max(0, span.start - clueContext);
    return acceptedIn(rule, text.slice(from, span.end + clueContext), span.start - from, span.end - from);
  });
}

/** True when the rule accepts a match of `text` that starts within [start, end). */
function acceptedIn(rule: CredentialRule, text: string, start: number, end: number): boolean {
  rule.pattern.lastIndex = start;
  for (let match = rule.pattern.exec(text); match !== null && match.index < end; match = rule.pattern.exec(text)) {
    if (rule.accept(match, text)) return true;
  }
  return false;
}

function scanForm(form: string, kinds: Set<string>, byLabel: boolean): void {
  // Rules run over the whole form: every pattern is linear and `accept` reads a bounded neighbourhood of its match.
  const presentLiterals = ruleLiterals.present(form);
  for (const rule of credentialRules) {
    if (!kinds.has(rule.kind) && mayMatch(rule, presentLiterals) && ruleFinds(rule, form)) kinds.add(rule.kind);
  }
  // The label search works on bounded windows (its candidates are checked against the format rules around them).
  if (byLabel) {
    for (const window of windows(form)) {
      for (const kind of contextSecretKinds(window, (start, end) => coveredByFormat(window, start, end))) kinds.add(kind);
    }
  }
}

// Far enough around a labelled value to hold any format credential that overlaps it (a connection string).
const formatReach = 400;

/** True when a format rule accepts a match overlapping `text.slice(start, end)`: that rule reports it, as its own kind. */
function coveredByFormat(text: string, start: number, end: number): boolean {
  const from = Math.max(0, start - formatReach);
  const around = text.slice(from, end + formatReach);
  return credentialRules.some((rule) => {
    rule.pattern.lastIndex = 0;
    for (let match = rule.pattern.exec(around); match !== null; match = rule.pattern.exec(around)) {
      if (from + match.index < end && from + match.index + match[0].length > start && rule.accept(match, around)) return true;
    }
    return false;
  });
}

/**
 * Looks for credentials in the text as written and in every form normalization gives it (normalize-forms.ts: NFKC,
 * zero-width characters, Markdown escapes, wrapped lines, separators, concatenation, code spans), by format
 * (credential-rules.ts) and by label (context-secrets.ts); `secrets` are exact values (Saeng's own configuration)
 * always blocked.
 */
export function scanForCredentials(text: string, options: { secrets?: readonly string[] } = {}): CredentialScan {
  const kinds = new Set<string>();
  const forms = scanForms(text);
  for (const form of forms) scanForm(form.text, kinds, form.byLabel);
  // Written backwards too: cheaper than reversing every run of the text.
  const secrets = (options.secrets ?? []).filter((secret) => secret.length >= 8).flatMap(secretVariants);
  if (secrets.some((secret) => text.includes(secret) || forms.some((form) => form.text.includes(secret)))) {
    kinds.add('configured-secret');
  }
  return kinds.size === 0 ? { found: false } : { found: true, kinds: [...kinds] };
}
