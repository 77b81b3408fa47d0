import { describe, expect, it } from 'vitest';
import { languageStep } from '../../../agent/guards/index.js';
import { expectedAnswerLanguage } from '../../../agent/guards/language-drift-request.js';
import { openingVerdict } from '../../../agent/streaming/opening.js';
import { turnRecord } from '../../support/turn-record.js';

// A space that chose its language (TurnInput.languageFixed): the language step and the streamed opening expect it
// for a question in any language, unless the user asks for a language or a translation.

describe('expectedAnswerLanguage with a fixed language', () => {
  it.each([
    ['When does the shop open?', 'th', 'th'],
    ['ร้านเปิดกี่โมง', 'en', 'en'],
    ['泰国的首都是哪里？', 'th', 'th'],
    ['Docker compose ไม่ทำงาน ขึ้น error', 'en', 'en'],
    ['https://example.com', 'en', 'en'],
    ['translate to English: ร้านเปิดทุกวัน', 'th', undefined],
    ['แปลประโยคนี้หน่อย: The shop opens at eight.', 'en', undefined],
    ['ตอบเป็นภาษาจีนได้ไหม', 'th', undefined],
    ['Explain DNS, answer in Thai please', 'en', 'th'],
  ] as const)('%s (fixed %s) → %s', (question, fixed, expected) => {
    expect(expectedAnswerLanguage(question, fixed, true)).toBe(expected);
  });

  it('is unchanged without fixed', () => {
    expect(expectedAnswerLanguage('When does the shop open?', 'th')).toBeUndefined();
    expect(expectedAnswerLanguage('ร้านเปิดกี่โมง', 'en')).toBe('th');
  });
});

describe('the language step with a fixed language', () => {
  const english = 'The shop is open every day from eight in the morning until eight in the evening.';

  it('asks again for Thai, saying the chat is set to Thai', () => {
    const verdict = languageStep(turnRecord({ question: 'When does the shop open?', finalText: english }), { fixed: true });
    expect(verdict).toMatchObject({ action: 'retry', expected: 'th' });
    if (verdict.action === 'retry') expect(verdict.instruction).toContain('กลุ่มนี้ตั้งให้ตอบเป็นภาษาไทย');
    expect(languageStep(turnRecord({ question: 'When does the shop open?', finalText: english }))).toEqual({ action: 'pass' });
  });
});

describe('the streamed opening with a fixed language', () => {
  const record = turnRecord({ question: 'When does the shop open?', language: 'th' });
  const english = 'The shop is open every day from eight in the morning until eight in the evening.';

  it('waits on an English answer the language step would ask again for, opens on Thai', () => {
    expect(openingVerdict(english, record)).toBe('open');
    expect(openingVerdict(english, record, true)).toBe('wait');
    expect(openingVerdict('ร้านเปิดทุกวันตั้งแต่แปดโมงเช้าถึงสองทุ่มครับ', record, true)).toBe('open');
  });
});
