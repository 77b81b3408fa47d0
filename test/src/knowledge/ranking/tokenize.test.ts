import { describe, expect, it } from 'vitest';
import { maxTokenLength, tokenize, tokenizeWithoutSegmentation } from '../../../../src/knowledge/ranking/tokenize.js';

describe('tokenize', () => {
  it.each([
    ['Thai words are segmented', 'นโยบายการคืนเงินของบริษัท', ['นโยบาย', 'การ', 'คืน', 'เงิน', 'ของ', 'บริษัท']],
    ['Thai digits become ASCII', 'ภายใน ๓๐ วัน', ['ภายใน', '30', 'วัน']],
    ['letters and digits glued by ICU are split', 'ราคา1,234บาท ขึ้น25เปอร์เซ็นต์', ['ราคา', '1', '234', 'บาท', 'ขึ้น', '25', 'เปอร์เซ็นต์']],
    ['Latin is lower-cased and accents folded', 'Café NAÏVE Refund', ['cafe', 'naive', 'refund']],
    ['punctuation separates', 'e-mail: help@acme.co.th', ['e', 'mail', 'help', 'acme', 'co', 'th']],
    ['Thai vowel and tone marks stay inside the word', 'น้ำ ที่ ไม่ ใหญ่', ['น้ำ', 'ที่', 'ไม่', 'ใหญ่']],
    ['SARA AM written as NIKHAHIT + SARA AA (PDF extraction) is joined', 'น\u0e49\u0e4d\u0e32', ['น้ำ']],
    ['zero-width space separates, other invisible characters vanish', 'ภาษี\u200bเงินได้\u00ad', ['ภาษี', 'เงิน', 'ได้']],
    ['emoji and symbols are not tokens', '🙂 ★ ฿', []],
  ])('%s', (_name, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it('drops runs longer than a word can be (hashes, base64)', () => {
    const tokens = tokenize(`token ${'a'.repeat(maxTokenLength + 1)} end`);
    expect(tokens).toEqual(['token', 'end']);
  });

  it('yields the same tokens for the same text in query and document positions', () => {
    const document = tokenize('ระยะเวลาคืนสินค้าคือ 30 วันนับจากวันที่ได้รับ');
    for (const token of tokenize('คืนสินค้าได้กี่วัน')) {
      if (token !== 'กี่') expect(document).toContain(token);
    }
  });
});

describe('tokenizeWithoutSegmentation (benchmark baseline)', () => {
  it('keeps a Thai phrase as one token', () => {
    expect(tokenizeWithoutSegmentation('นโยบายการคืนเงิน ภายใน 30 วัน')).toEqual(['นโยบายการคืนเงิน', 'ภายใน', '30', 'วัน']);
  });
});
