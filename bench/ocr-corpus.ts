import type { ThaiFont } from '../test/support/text-images.js';

// The OCR bench's documents: short, original texts of the kinds users photograph (receipts, notices, menus,
// letters, labels, timetables), with figures, dates in Buddhist-Era years and some Thai digits. Each is rendered
// in one of the OFL fonts committed in test/fixtures/fonts; the reference text is the source, so nothing is stored.

export interface OcrDocument {
  name: string;
  language: 'th' | 'en';
  font: ThaiFont;
  text: string;
}

const lines = (...text: string[]): string => text.join('\n');

export const ocrCorpus: readonly OcrDocument[] = [
  {
    name: 'th-receipt',
    language: 'th',
    font: 'Sarabun',
    text: lines(
      'ร้านข้าวแกงป้าศรี',
      'ใบเสร็จรับเงิน เลขที่ 2568/0457',
      'วันที่ 3 กุมภาพันธ์ 2568 เวลา 12:40 น.',
      'ข้าวผัดกะเพราไก่ 2 จาน 120.00 บาท',
      'ต้มยำกุ้ง 1 ถ้วย 150.00 บาท',
      'ชาเย็น 3 แก้ว 75.00 บาท',
      'รวมทั้งสิ้น 345.00 บาท',
      'ขอบคุณที่ใช้บริการ',
    ),
  },
  {
    name: 'th-shop-notice',
    language: 'th',
    font: 'NotoSansThai',
    text: lines(
      'ประกาศ',
      'ร้านจะปิดปรับปรุงชั่วคราว',
      'ตั้งแต่วันที่ ๑๕ ถึง ๒๐ เมษายน ๒๕๖๘',
      'เปิดให้บริการตามปกติวันที่ 21 เมษายน',
      'สอบถามโทร 081-234-5678',
      'ขออภัยในความไม่สะดวก',
    ),
  },
  {
    name: 'th-meeting',
    language: 'th',
    font: 'Sarabun',
    text: lines(
      'ขอเชิญประชุมคณะกรรมการหมู่บ้าน',
      'ครั้งที่ 4/2568',
      'วันพฤหัสบดีที่ 12 มิถุนายน พ.ศ. 2568',
      'เวลา 09:30 น. ณ ศาลาประชาคม',
      'วาระที่ 1 งบประมาณซ่อมถนน 250,000 บาท',
      'วาระที่ 2 การจัดงานวันแม่',
      'โปรดมาตรงเวลา',
    ),
  },
  {
    name: 'th-menu',
    language: 'th',
    font: 'Kanit',
    text: lines(
      'เมนูร้านก๋วยเตี๋ยวเรือ',
      'ก๋วยเตี๋ยวหมูน้ำตก 50 บาท',
      'ก๋วยเตี๋ยวเนื้อตุ๋น 60 บาท',
      'เกาเหลาพิเศษ 70 บาท',
      'ข้าวมันไก่ 45 บาท',
      'น้ำกระเจี๊ยบ 20 บาท',
      'ชาดำเย็น 25 บาท',
      'เพิ่มพิเศษ ๑๐ บาท',
    ),
  },
  {
    name: 'th-letter',
    language: 'th',
    font: 'Sarabun',
    text: lines(
      'ที่ มท 0808.2/ว 1234',
      'สำนักงานเขตบางรัก',
      '30 กันยายน 2567',
      'เรื่อง ขอความร่วมมือในการสำรวจข้อมูลประชากร',
      'เรียน ผู้อำนวยการโรงเรียนทุกแห่ง',
      'ด้วยสำนักงานเขตมีกำหนดสำรวจข้อมูลประชากร',
      'ระหว่างวันที่ 1 ถึง 31 ตุลาคม 2567',
      'จึงเรียนมาเพื่อโปรดทราบและพิจารณาดำเนินการ',
    ),
  },
  {
    name: 'th-label',
    language: 'th',
    font: 'Sarabun',
    text: lines(
      'น้ำพริกเผาแม่บุญมี',
      'ส่วนประกอบ พริกแห้ง 40% หอมแดง 25% กระเทียม 20%',
      'น้ำหนักสุทธิ 200 กรัม',
      'วันผลิต 05/01/2568',
      'ควรบริโภคก่อน 05/01/2569',
      'เลขสารบบอาหาร 10-1-12345-2-0001',
      'เก็บในที่แห้งและเย็น',
    ),
  },
  {
    name: 'th-bus-timetable',
    language: 'th',
    font: 'NotoSansThai',
    text: lines(
      'ตารางเดินรถสาย 8 เชียงใหม่ ลำพูน',
      'เที่ยวที่ 1 ออก 06:00 น. ถึง 06:50 น.',
      'เที่ยวที่ 2 ออก 07:30 น. ถึง 08:20 น.',
      'เที่ยวที่ 3 ออก 10:00 น. ถึง 10:50 น.',
      'เที่ยวที่ 4 ออก 13:15 น. ถึง 14:05 น.',
      'เที่ยวที่ 5 ออก 17:45 น. ถึง 18:35 น.',
      'ค่าโดยสารตลอดสาย ๓๐ บาท',
    ),
  },
  {
    name: 'th-school-notice',
    language: 'th',
    font: 'Kanit',
    text: lines(
      'โรงเรียนบ้านหนองบัว',
      'แจ้งผู้ปกครองนักเรียนทุกระดับชั้น',
      'โรงเรียนจะจัดกิจกรรมวันวิทยาศาสตร์',
      'ในวันที่ 18 สิงหาคม 2568',
      'นักเรียนแต่งกายชุดพละ นำน้ำดื่มมาเอง',
      'ค่าอาหารกลางวันคนละ 40 บาท',
      'ส่งใบตอบรับภายในวันที่ 11 สิงหาคม',
    ),
  },
  {
    name: 'en-receipt',
    language: 'en',
    font: 'Sarabun',
    text: lines(
      'Corner Bakery & Cafe',
      'Receipt No. 10492',
      'Date: 14 March 2025 08:12',
      'Flat white x2 7.80',
      'Almond croissant x1 3.95',
      'Orange juice x1 4.20',
      'Total 15.95 GBP',
      'Thank you for visiting',
    ),
  },
  {
    name: 'en-notice',
    language: 'en',
    font: 'NotoSansThai',
    text: lines(
      'NOTICE TO RESIDENTS',
      'Water supply will be interrupted',
      'on Tuesday 9 September 2025',
      'from 10:00 to 15:30 for pipe repairs.',
      'Please store enough water in advance.',
      'Enquiries: 02-555-0199',
    ),
  },
  {
    name: 'en-invoice',
    language: 'en',
    font: 'Sarabun',
    text: lines(
      'INVOICE #INV-2025-0311',
      'Bill to: Riverside Printing Co., Ltd.',
      'Issue date: 2 June 2025',
      'Due date: 2 July 2025',
      'A4 paper, 20 reams at 110.00 = 2,200.00',
      'Toner cartridge, 3 at 1,450.00 = 4,350.00',
      'Subtotal 6,550.00 VAT 7% 458.50',
      'Amount due 7,008.50 THB',
    ),
  },
  {
    name: 'en-paragraph',
    language: 'en',
    font: 'Kanit',
    text: lines(
      'The library opens at eight in the morning',
      'and closes at six in the evening on weekdays.',
      'Members may borrow up to five books at once',
      'for a period of fourteen days. A fine of',
      '5 baht per day applies to late returns.',
      'Study rooms can be booked one week ahead.',
    ),
  },
];

/** `--quick` (the test suite runs it once, so the bench does not rot): one Thai and one English document. */
export const quickCorpusNames: readonly string[] = ['th-receipt', 'en-invoice'];
