import { describe, expect, it } from 'vitest';
import { credentialRules } from '../../../src/dlp/credential-rules.js';
import { LiteralFinder } from '../../../src/dlp/literal-finder.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { fake, randomText } from '../../support/fake-tokens.js';
import { alphabets } from './rule-examples/examples.js';
import { ruleExamples } from './rule-examples/index.js';

// The scanner's two shortcuts on large texts (src/dlp/scan.ts): a rule runs only when one of its literals occurs
// (LiteralFinder), and a rule with clues runs only near them. Neither may lose a credential the plain scan finds.

/** Ordinary text on both sides, long enough that every form is scanned as a large text (no token in it). */
const filler = 'ระบบตรวจข้อความก่อนส่งออก the scanner reads every line before it leaves. '.repeat(900);

describe('LiteralFinder', () => {
  const literals = [...new Set(credentialRules.flatMap((rule) => rule.literals))];
  const finder = new LiteralFinder(literals);

  it('finds the same literals as a lower-cased includes, on random and mixed-case texts', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const text = `${randomText(3_000, seed, `${alphabets.base64}_-.:=~/ `)} ${literals[seed % literals.length]?.toUpperCase()} ไทย`;
      const lower = text.toLowerCase();
      expect([...finder.present(text)].sort(), `seed ${seed}`).toEqual(literals.filter((literal) => lower.includes(literal)).sort());
    }
  });

  it('finds a shorter literal that starts where a longer one does, and one inside another', () => {
    const small = new LiteralFinder(['sk-ant-', 'sk-', 'sk', 'ant']);
    expect([...small.present('x SK-ANT-abc')].sort()).toEqual(['ant', 'sk', 'sk-', 'sk-ant-']);
    expect([...small.present('')]).toEqual([]);
  });

  it('refuses a literal it could not match', () => {
    expect(() => new LiteralFinder(['Upper'])).toThrow();
    expect(() => new LiteralFinder(['ไทย'])).toThrow();
  });
});

describe('rules with clues', () => {
  const kindsWithClues = new Set(credentialRules.filter((rule) => rule.near).map((rule) => rule.kind));

  it('are the prefix-less ones', () => {
    expect([...kindsWithClues].sort()).toEqual(['aws-secret-key', 'azure-devops-pat', 'twilio-key']);
  });

  it('still find every positive example inside a large text', () => {
    for (const examples of ruleExamples.filter((entry) => kindsWithClues.has(entry.kind))) {
      examples.positives.forEach((positive, index) => {
        const scan = scanForCredentials(`${filler}\n${positive.make(700 + index)}\n${filler}`);
        expect(scan.found && scan.kinds.includes(examples.kind), `${examples.kind}: ${positive.name}`).toBe(true);
      });
    }
  });

  it('find a clue at the far edge of its reach', () => {
    const awsSecret = fake.awsSecret();
    const hex = randomText(32, 808, alphabets.hex);
    const spacer = (length: number) => ' '.repeat(length);
    const cases: [string, string][] = [
      // A key id ending 430 characters after the secret's start (the rule reads 440 from there).
      ['aws-secret-key', `${filler}\n${awsSecret}${spacer(370)}${fake.awsKeyId()}\n${filler}`],
      // A key id 390 characters before it (the rule reads 400).
      ['aws-secret-key', `${filler}\n${fake.awsKeyId()}${spacer(370)}${awsSecret}\n${filler}`],
      // The label's "aws" 111 characters before it (the rule reads 120).
      ['aws-secret-key', `${filler}\naws secret:${spacer(100)}${awsSecret}\n${filler}`],
      // An account SID ending 190 characters after the auth token (the rule reads 200).
      ['twilio-key', `${filler}\n${hex}${spacer(156)}AC${randomText(32, 809, alphabets.hex)}\n${filler}`],
      // The word Twilio 190 characters before it.
      ['twilio-key', `${filler}\nTwilio${spacer(184)}${hex}\n${filler}`],
    ];
    for (const [kind, text] of cases) {
      const scan = scanForCredentials(text);
      expect(scan.found && scan.kinds.includes(kind), kind).toBe(true);
    }
  });
});
