import { describe, expect, it } from 'vitest';
import { callsByName } from '../../../src/pipeline/name-call.js';

const names = ['แสง', 'saeng'];

// The rule and what Intl.Segmenter does with each of these: src/pipeline/name-call.ts.
const calls = [
  'แสง ช่วยสรุปหน่อย',
  'พี่แสงครับ ราคาทองวันนี้',
  'น้องแสง ช่วยแปลที',
  'ช่วยด้วยแสง',
  'Saeng, what time is it?',
  'สวัสดีครับแสง',
  'แสง',
  'แสงครับ',
  'แสงคะ ช่วยหน่อย',
  'คุณแสงคะ ช่วยหน่อย',
  'ท่านแสง',
  'ขอบคุณนะแสง',
  'ขอบคุณครับพี่แสง',
  'แสงช่วยสรุปข่าวหน่อย',
  'แสงตอบหน่อย',
  'แสง, ช่วยหน่อย',
  'แสง! ช่วยด้วย',
  'ว่าไงแสง',
  'หวัดดีแสง',
  'ขอบใจแสง',
  'ไหวไหมแสง',
  'โอเคแสง',
  'ช่วยหน่อยแสง',
  'แสงจ๋า',
  'ฝากด้วยนะแสง',
  'แสงคะ 🙏',
  'แสงคิดว่าไง',
  'วันนี้อากาศดีนะ แสงว่าไหม',
  'ถามหน่อย แสงรู้ไหม',
  'ราคาทอง ๔๒,๕๐๐ บาทครับแสง',
  'สวัสดีครับ\nแสง ช่วยสรุปข่าวนี้หน่อย',
  'hey SAENG',
  'saeng?',
  'พี่saengครับ',
  'ok saeng: translate this',
];

const doesNotCall = [
  'แสงแดดวันนี้แรงมาก',
  'แสงสว่าง',
  'ไฟฉายแสงสีขาว',
  'แสงอาทิตย์',
  // The plain word as the object that ends a sentence: light, not a call.
  'เปิดไฟให้มีแสง',
  'ห้องมืดไม่มีแสง',
  'ช่วยเพิ่มแสงหน่อย',
  'https://example.com/saeng',
  'ดูที่ www.saeng.co.th',
  'ส่งไปที่ saeng@example.com',
  'ไฟล์ saeng.jpg',
  'อยู่ใน /saeng/notes.md',
  'the saeng_bot account',
  'saengsiri is here',
  '#แสง',
  'แสง๑๒๓',
  'ห้องนี้แสงน้อยไป',
  'แสงไฟสวยมาก',
  'แสงเงา',
  'ถ่ายรูปย้อนแสงไม่สวย',
  'ไม่มีแสงเลย',
  'แสงจันทร์',
  'ลำแสง',
  'ความเร็วแสง',
  'ปีแสง',
  'ถ่ายด้วยแสง',
  'เมื่อวานพี่แสงมาหา',
  'วันนี้ไปเที่ยวมา แสง สี เสียง อลังการมาก',
  'แสงสีเสียง',
  'แสงไม่พอ',
  'ถ่ายรูปตอนเช้า แสงสวยมาก',
  'แสงๆ',
  'ดวงอาทิตย์ให้แสงสว่าง',
  'โคมไฟนี้แสงนุ่ม',
  'เราต้องการแสงมากกว่านี้',
  'แสงเลเซอร์อันตราย',
];

describe('callsByName', () => {
  it('has a table big enough to mean something', () => {
    expect(calls.length).toBeGreaterThanOrEqual(25);
    expect(doesNotCall.length).toBeGreaterThanOrEqual(25);
  });

  it.each(calls)('calls: %s', (text) => {
    expect(callsByName(text, names)).toBe(true);
  });

  it.each(doesNotCall)('does not call: %s', (text) => {
    expect(callsByName(text, names)).toBe(false);
  });

  it('reads names NFC-normalized and lower-cased, and ignores blank ones', () => {
    expect(callsByName('Hi Saeng', ['  SAENG '])).toBe(true);
    expect(callsByName('merci Séa', ['Se\u0301a'])).toBe(true);
    expect(callsByName('แสง ช่วยหน่อย', ['', '  '])).toBe(false);
    expect(callsByName('แสง ช่วยหน่อย', [])).toBe(false);
  });

  it('matches a name of more than one word', () => {
    expect(callsByName('น้องแสง ช่วยแปลที', ['น้องแสง'])).toBe(true);
    expect(callsByName('Saeng Bot, hello', ['saeng bot'])).toBe(true);
    expect(callsByName('แสง ช่วยแปลที', ['น้องแสง'])).toBe(false);
  });

  it('looks at the first 500 characters only', () => {
    const long = 'ข้อความยาวมาก '.repeat(40);
    expect(long.length).toBeGreaterThan(500);
    expect(callsByName(`${long} ขอบคุณครับแสง`, names)).toBe(false);
    expect(callsByName(`แสง ช่วยสรุปนี้หน่อย ${long}`, names)).toBe(true);
    expect(callsByName('แสงสว่าง'.repeat(50_000), names)).toBe(false);
  });
});
