import { segmentsOf } from '../../src/shared/segments.js';
// The words and numbers a text carries, for telling whether an answer used a passage: Thai has no spaces between
// words, so words come from ICU's dictionary segmenter; stopwords, punctuation and bare digits are not words.
// Numbers are kept apart (a shared figure is evidence on its own).

const wordSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

/** Text beyond this is not read: an answer or a passage block is far shorter. */
export const maxReadCharacters = 20_000;
const maxTokenLength = 40;

const number = /^[0-9๐-๙][0-9๐-๙.,]{0,30}$/;
const thaiDigit = /[๐-๙]/g;

// Function words of Thai and English, and the words any "found / not found in the documents" sentence uses.
const stopwords = new Set(
  [
    'ไม่ ได้ ให้ ที่ ของ และ หรือ ใน การ ความ เป็น มี จะ ว่า ก็ แล้ว กับ จาก โดย เพื่อ คือ นี้ นั้น ซึ่ง อยู่ ยัง ไป มา',
    'ครับ ค่ะ คะ นะ จ้ะ จ้า ต้อง อาจ เมื่อ แต่ ถ้า หาก ทั้ง เรา คุณ ท่าน ผม ฉัน ดิฉัน กัน อย่าง ไร อะไร บ้าง ด้วย แก่ แบบ',
    'ตาม ต่อ ทำ ส่วน ละ เลย ไหม เท่า แค่ เพียง จึง ถึง ทาง เช่น ขอ ขออภัย พบ เจอ เกี่ยว เกี่ยวกับ ข้อมูล เอกสาร ระบุ กล่าว',
    'ดังนี้ ได้แก่ สามารถ ควร เรื่อง ค่ะ นี่ โปรด กรุณา ทราบ ค้น หา ค้นหา คลัง ความรู้ รู้ ข้อความ',
    'the a an and or of to in on for is are was were be been by with as at from this that these those it its you your',
    'we our i not no can could will would should may might do does did have has had there here about into than then so',
    'if but what which who how when where yes information document documents find found',
  ]
    .join(' ')
    .split(' '),
);

export interface ContentTokens {
  words: Set<string>;
  numbers: Set<string>;
}

function numberKey(token: string): string {
  return token
    .replace(thaiDigit, (digit) => String(digit.charCodeAt(0) - 0x0e50))
    .replace(/,/g, '')
    .replace(/\.$/, '');
}

// ICU glues digits to Thai letters ("ราคา1234บาท" is one segment): a space between them first.
const letterThenDigit = /([\u0e01-\u0e4e])([0-9๐-๙])/g;
const digitThenLetter = /([0-9๐-๙])([\u0e01-\u0e4e])/g;

export function contentTokens(text: string): ContentTokens {
  const words = new Set<string>();
  const numbers = new Set<string>();
  const prepared = text.slice(0, maxReadCharacters).toLowerCase().replace(letterThenDigit, '$1 $2').replace(digitThenLetter, '$1 $2');
  for (const { segment, isWordLike } of segmentsOf(wordSegmenter, prepared)) {
    if (!isWordLike || segment.length > maxTokenLength) continue;
    if (number.test(segment)) numbers.add(numberKey(segment));
    else if (segment.length >= 2 && !stopwords.has(segment) && !/^[\d.,]+$/.test(segment)) words.add(segment);
  }
  return { words, numbers };
}
