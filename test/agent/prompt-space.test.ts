import { describe, expect, it } from 'vitest';
import { Agent, maxCachedSystemPrompts } from '../../agent/agent.js';
import { buildSystemPrompt } from '../../agent/prompt.js';
import type { AgentDependencies } from '../../agent/agent.js';
import { silentLogger } from '../../src/shared/log.js';

// The system prompt per space setting (language, fixed language, instructions) and the agent's bounded cache of them.

const withTools = { tools: true, vision: false };
const base = { botName: 'แสง', language: 'th', capabilities: withTools, toolPolicies: ['นโยบายคลังความรู้'] } as const;

describe('buildSystemPrompt with space settings', () => {
  it('is unchanged without them (and with them off or empty)', () => {
    const plain = buildSystemPrompt(base);
    expect(buildSystemPrompt({ ...base, languageFixed: false, spaceInstructions: '' })).toBe(plain);
    expect(buildSystemPrompt({ ...base, spaceInstructions: '  \n ' })).toBe(plain);
  });

  it('adds the fixed-language line in the language itself, right after the persona', () => {
    const plain = buildSystemPrompt(base);
    const fixed = buildSystemPrompt({ ...base, languageFixed: true });
    const [persona] = plain.split('\n\n');
    expect(fixed).toBe(plain.replace(persona ?? '', `${persona}\nตอบเป็นภาษาไทยเสมอ แม้คำถามจะเป็นภาษาอื่น เว้นแต่ผู้ใช้ขอภาษาอื่นหรือขอให้แปล`));
    const english = buildSystemPrompt({ ...base, language: 'en', toolPolicies: [], languageFixed: true });
    expect(english).toContain(
      'Always answer in English, even when the question is in another language, unless the user asks for another language or a translation.',
    );
  });

  it('puts the instructions last, under a heading saying they are the admins and never override the rules', () => {
    const plain = buildSystemPrompt({ ...base, language: 'en', toolPolicies: ['Knowledge policy.'] });
    const prompt = buildSystemPrompt({ ...base, language: 'en', toolPolicies: ['Knowledge policy.'], spaceInstructions: 'Be playful.' });
    expect(prompt).toBe(
      `${plain}\n\nExtra instructions from this group's admins (follow them as long as they do not conflict with the rules above):\nBe playful.`,
    );
    expect(prompt.indexOf('Knowledge policy.')).toBeLessThan(prompt.indexOf('Be playful.'));
  });
});

function agent(): Agent {
  const unused = () => {
    throw new Error('not used here');
  };
  return new Agent({
    model: {} as AgentDependencies['model'],
    tools: [],
    toolPolicies: [{ th: 'นโยบาย', en: 'Policy.' }],
    capabilities: { current: unused, forget: unused } as unknown as AgentDependencies['capabilities'],
    history: {} as AgentDependencies['history'],
    settings: { botName: 'แสง', language: 'th', timeZone: 'Asia/Bangkok', maxSteps: 4, dataDir: '/nonexistent', secrets: [] },
    log: silentLogger(),
  });
}

describe("the agent's system prompts", () => {
  it('stay at most maxCachedSystemPrompts after 200 spaces with their own instructions, each still the same bytes', () => {
    const subject = agent();
    const first = subject.systemPrompt(withTools, { language: 'th', spaceInstructions: 'space 0' });
    for (let space = 1; space < 200; space++) {
      subject.systemPrompt(withTools, { language: 'th', spaceInstructions: `space ${space}` });
      expect(subject.cachedSystemPrompts()).toBeLessThanOrEqual(maxCachedSystemPrompts);
    }
    expect(subject.cachedSystemPrompts()).toBe(maxCachedSystemPrompts);
    // Dropped and built again: byte-identical.
    expect(subject.systemPrompt(withTools, { language: 'th', spaceInstructions: 'space 0' })).toBe(first);
  });

  it('without a space are the BOT_LANGUAGE prompt, as before', () => {
    const subject = agent();
    const expected = buildSystemPrompt({ botName: 'แสง', language: 'th', capabilities: withTools, toolPolicies: ['นโยบาย'] });
    expect(subject.systemPrompt(withTools)).toBe(expected);
    expect(subject.systemPrompt(withTools, { language: 'th' })).toBe(expected);
    expect(subject.systemPrompt(withTools, { language: 'en' })).toBe(
      buildSystemPrompt({ botName: 'แสง', language: 'en', capabilities: withTools, toolPolicies: ['Policy.'] }),
    );
  });
});
