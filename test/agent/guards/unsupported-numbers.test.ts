import { describe, expect, it } from 'vitest';
import { markUnsupportedNumbers } from '../../../agent/guards/unsupported-numbers.js';

const toolResult = [
  'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท เพิ่มขึ้น 0.52% จากเมื่อวาน ประกาศเวลา 09.15 น. วันที่ 15/1/2568',
  'GDP in 2024 grew 2.46 percent. ยอดขายรวม 1,456,789 บาท ข้อมูลปี พ.ศ. 67',
  'Python 3.12.1 released. ติดต่อ 02-123-4567 [source: https://example.com/gold]',
].join('\n');
const question = 'ถ้ามีงบ 50,000 บาท ซื้อทองได้กี่บาท';
const dateLine = 'วันพุธที่ 15 มกราคม พ.ศ. 2568 (2025-01-15) เวลา 14:30 น.';
const support = [toolResult, question, dateLine];

function check(answer: string, language: 'th' | 'en' = 'th') {
  return markUnsupportedNumbers(answer, support, language);
}

describe('unsupported numbers: marked', () => {
  const cases: [string, string, string][] = [
    ['an invented price', 'ราคาวันนี้ 42,000 บาท', 'ราคาวันนี้ [ตัวเลขยังไม่ยืนยัน] บาท'],
    ['an invented price in Thai digits', 'ราคาวันนี้ ๔๒,๐๐๐ บาท', 'ราคาวันนี้ [ตัวเลขยังไม่ยืนยัน] บาท'],
    ['an invented small percentage', 'เพิ่มขึ้น 5% จากเมื่อวาน', 'เพิ่มขึ้น [ตัวเลขยังไม่ยืนยัน] จากเมื่อวาน'],
    ['percent written as a word', 'ลดลง 3 เปอร์เซ็นต์', 'ลดลง [ตัวเลขยังไม่ยืนยัน]'],
    ['ร้อยละ', 'คิดเป็นร้อยละ 12.5 ของทั้งหมด', 'คิดเป็นร้อยละ [ตัวเลขยังไม่ยืนยัน] ของทั้งหมด'],
    ['a scaled figure too far from the support', 'ยอดขาย 1.2 ล้านบาท', 'ยอดขาย [ตัวเลขยังไม่ยืนยัน] บาท'],
    ['a year in neither era', 'ข้อมูลของปี 2023', 'ข้อมูลของปี [ตัวเลขยังไม่ยืนยัน]'],
    ['an invented time', 'ประกาศเวลา 10.30 น.', 'ประกาศเวลา [ตัวเลขยังไม่ยืนยัน] น.'],
    ['a version that is not the one returned', 'ใช้ Python 3.13.0 ได้เลย', 'ใช้ Python [ตัวเลขยังไม่ยืนยัน] ได้เลย'],
    ['a date with a wrong day', 'วันที่ 16/1/2568', 'วันที่ [ตัวเลขยังไม่ยืนยัน]'],
    ['a range with one invented end', 'ราว 0.5-0.9% ต่อวัน', 'ราว [ตัวเลขยังไม่ยืนยัน] ต่อวัน'],
    ['small money is not a count', 'ค่าธรรมเนียม $5 ต่อครั้ง', 'ค่าธรรมเนียม [ตัวเลขยังไม่ยืนยัน] ต่อครั้ง'],
    ['a small day of a month is a date', 'ประกาศเมื่อ 5 มกราคม', 'ประกาศเมื่อ [ตัวเลขยังไม่ยืนยัน] มกราคม'],
    ['a derived sum', 'รวมสองวันเป็น 82,100 บาท', 'รวมสองวันเป็น [ตัวเลขยังไม่ยืนยัน] บาท'],
    ['an English answer', 'The price rose 7.5% today.', 'The price rose [unconfirmed figure] today.'],
    ['a run of 5s that is money, not laughter', 'ราคา 5555 บาท', 'ราคา [ตัวเลขยังไม่ยืนยัน] บาท'],
    ['a time range with an invented end', 'เปิด 9:15–18:00 ทุกวัน', 'เปิด [ตัวเลขยังไม่ยืนยัน] ทุกวัน'],
  ];
  it.each(cases)('%s', (_name, answer, expected) => {
    const language = /[ก-๙]/.test(answer) ? 'th' : 'en';
    const result = check(answer, language);
    expect(result.text).toBe(expected);
    expect(result.unsupported).toBe(1);
  });
});

describe('unsupported numbers: left alone', () => {
  const cases: [string, string][] = [
    ['the same price', 'ราคาทองวันนี้ 41,050 บาท'],
    ['the same price in Thai digits and without separator', 'ราคา ๔๑,๐๕๐ บาท หรือ 41050 บาท'],
    ['the percentage, also as ร้อยละ and rounded', 'เพิ่มขึ้น 0.52% (ร้อยละ 0.52) หรือราว 0.5%'],
    ['a rounded scaled figure', 'ยอดขายราว 1.46 ล้านบาท หรือประมาณ 1.5 ล้าน (1,456,789 บาท, 1.46M)'],
    ['rounding of a decimal', 'GDP grew 2.5 percent, about 2% in round numbers'],
    ['years in both eras and a two-digit BE year', 'ในปี พ.ศ. 2567 (ค.ศ. 2024) และปี 2025 ตรงกับ พ.ศ. 2568 หรือปี 67'],
    ['the time in another notation', 'ประกาศเวลา 09:15 หรือ 9.15 น.'],
    ['the date in words and with leading zeros', 'ข้อมูลวันที่ 15 มกราคม 2568 หรือ 15/01/2568'],
    ['numbers from the question', 'งบ 50,000 บาท ซื้อได้ไม่ถึง 2 บาททอง'],
    ['the date line', 'วันนี้ 15 ม.ค. 2568 เวลา 14:30 น.'],
    ['list numbering', '1. ราคาทอง\n2. ราคาน้ำมัน\n11. ค่าเงินบาท\nข้อ 12 สำคัญที่สุด'],
    ['small counts', 'มี 3 ร้านที่ขาย และ 2 วิธีในการซื้อ ใช้เวลา 10 นาที'],
    ['numbers in code', 'ตั้งค่า `PORT=8080` แล้วรัน\n```\nretry = 12345\n```'],
    ['numbers in a URL', 'ดูที่ https://example.com/2024/05/report-98765'],
    ['names with digits', 'COVID-19, Qwen3 และ GPT-4o ไม่ใช่ตัวเลข'],
    ['an identifier from the support', 'โทร 02-123-4567 หรือใช้ Python 3.12.1'],
    ['a reference marker', 'ราคาขึ้น [1] ตามข่าว [12]'],
    ['no figures at all', 'ทองคำเป็นสินทรัพย์ปลอดภัย'],
    ['Thai laughter in both digit forms', 'ตลกมาก 5555555 จริงๆ ๕๕๕'],
    ['a time range written another way', 'เปิดตั้งแต่ 14:30 ถึง 9.15 น. หรือ 9:15–14:30'],
  ];
  it.each(cases)('%s', (_name, answer) => {
    const result = check(answer);
    expect(result.text).toBe(answer);
    expect(result.unsupported).toBe(0);
  });
});
