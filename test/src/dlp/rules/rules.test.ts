import { describe, expect, it } from 'vitest';
import { credentialRules } from '../../../../src/dlp/credential-rules.js';
import { scanForCredentials } from '../../../../src/dlp/scan.js';
import { ruleExamples } from '../rule-examples/index.js';

// The rules as data: every kind of credentialRules has generated positives (found with exactly that kind, in a
// Thai and an English sentence, for several seeds) and near-miss negatives (not found at all).

const seeds = [1, 2, 3, 42, 2026];
const contexts: [language: string, wrap: (value: string) => string][] = [
  ['Thai', (value) => `ค่าที่ใช้ตั้งค่าระบบคือ ${value} กรุณาเก็บไว้ให้ดีนะครับ`],
  ['English', (value) => `Here is the value from the config file:\n${value}\nKeep it somewhere safe.`],
];

function kindsOf(text: string): string[] {
  const scan = scanForCredentials(text);
  return scan.found ? scan.kinds : [];
}

const ruleKinds = [...new Set(credentialRules.map((rule) => rule.kind))];
const positives = ruleExamples.flatMap((examples) =>
  examples.positives.flatMap((positive) =>
    contexts.flatMap(([language, wrap]) =>
      seeds.map((seed) => [examples.kind, `${positive.name} (${language}, seed ${seed})`, wrap(positive.make(seed))] as const),
    ),
  ),
);
const negatives = ruleExamples.flatMap((examples) => examples.negatives.map((negative) => [examples.kind, negative.name, negative.text] as const));

describe('credential rules as data', () => {
  it('every kind of the rules has positive and negative examples, and every example names a kind of the rules', () => {
    const missing = ruleKinds.filter((kind) => {
      const examples = ruleExamples.find((entry) => entry.kind === kind);
      return !examples || examples.positives.length < 2 || examples.negatives.length < 2;
    });
    expect(missing).toEqual([]);
    expect(ruleExamples.map((entry) => entry.kind).filter((kind) => !ruleKinds.includes(kind))).toEqual([]);
  });

  it('every rule has prefilter literals, lower-case, and a global pattern', () => {
    for (const rule of credentialRules) {
      expect(rule.pattern.global, rule.kind).toBe(true);
      expect(rule.literals.length, rule.kind).toBeGreaterThan(0);
      for (const literal of rule.literals) expect(literal, rule.kind).toBe(literal.toLowerCase());
    }
  });

  it.each(positives)('%s: %s is found as exactly that kind', (kind, _name, text) => {
    expect(kindsOf(text)).toEqual([kind]);
  });

  it.each(negatives)('%s near-miss: %s is not found', (_kind, _name, text) => {
    expect(kindsOf(text)).toEqual([]);
  });

  it('every positive contains one of its rules’ literals (the log redactor relies on them)', () => {
    for (const [kind, name, text] of positives) {
      const literals = credentialRules.filter((rule) => rule.kind === kind).flatMap((rule) => rule.literals);
      expect(
        literals.some((literal) => text.toLowerCase().includes(literal)),
        `${kind}: ${name}`,
      ).toBe(true);
    }
  });
});
