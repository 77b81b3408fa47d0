import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Draw } from './draw.js';
import type { Sample } from './sample.js';

// Negatives that are ordinary writing: the Thai XQuAD paragraphs and questions (CC BY-SA 4.0, copied into
// test/fixtures/knowledge with its licence), Thai text with digits and dates, phone numbers, version strings,
// hyphenated words, code that names a password without a value, and prose that names a PEM header.

const xquadPath = new URL('../../fixtures/knowledge/xquad.th.json', import.meta.url);
const xquadSchema = z.object({
  data: z.array(z.object({ paragraphs: z.array(z.object({ context: z.string(), qas: z.array(z.object({ question: z.string() })) })) })),
});

export type NegativeClass = (draw: Draw) => string[];

const negative = (context: string, text: string): Sample => ({ kind: 'negative', form: 'plain', context, text });

export function xquadSamples(): Sample[] {
  const paragraphs = xquadSchema.parse(JSON.parse(readFileSync(xquadPath, 'utf8'))).data.flatMap((article) => article.paragraphs);
  return [
    ...paragraphs.map((paragraph) => negative('xquad-paragraph', paragraph.context)),
    ...paragraphs.flatMap((paragraph) => paragraph.qas.map((qa) => negative('xquad-question', qa.question))),
  ];
}

const thaiMonths = ['มกราคม', 'กุมภาพันธ์', 'มีนาคม', 'เมษายน', 'พฤษภาคม', 'มิถุนายน', 'กรกฎาคม', 'สิงหาคม', 'กันยายน', 'ตุลาคม', 'พฤศจิกายน', 'ธันวาคม'];
const thaiDigits = (text: string) => text.replace(/\d/g, (digit) => String.fromCharCode(0x0e50 + Number(digit)));

const thaiDigitsDates: NegativeClass = (draw) =>
  Array.from({ length: 40 }, (_, index) => {
    const day = draw.int(1, 28);
    const month = draw.pick(thaiMonths);
    const year = draw.int(2560, 2570);
    const price = `${draw.int(1, 99)},${draw.text(3, '0123456789')}.${draw.text(2, '0123456789')}`;
    const lines = [
      `วันที่ ${day} ${month} พ.ศ. ${year} เวลา ${draw.int(0, 23)}:${draw.text(2, '012345')} น. ราคาทองคำแท่งขายออกบาทละ ${price} บาท`,
      `เลขที่คำสั่งซื้อ ${draw.number(12)} จัดส่งวันที่ ${day}/${draw.int(1, 12)}/${year} ยอดรวม ${price} บาท (รวมภาษีมูลค่าเพิ่ม 7%)`,
      thaiDigits(`ประชุมครั้งที่ ${draw.int(1, 40)}/${year} วันที่ ${day} ${month} ${year} ผู้เข้าร่วม ${draw.int(10, 300)} คน งบประมาณ ${price} ล้านบาท`),
      `เลขพัสดุ TH${draw.number(11)}A ถึงปลายทางวันที่ ${day} ${month} ${year} ติดต่อสาขา ${draw.number(5)}`,
      `ผลสลากกินแบ่งรัฐบาลงวดวันที่ ${day} ${month} ${year} รางวัลที่ 1 ได้แก่ ${draw.text(6, '0123456789')} เลขท้าย 2 ตัว ${draw.text(2, '0123456789')}`,
    ];
    return lines[index % lines.length] ?? '';
  });

const phoneNumbers: NegativeClass = (draw) =>
  Array.from({ length: 20 }, (_, index) => {
    const mobile = `0${draw.pick(['6', '8', '9'])}${draw.int(1, 9)}-${draw.text(3, '0123456789')}-${draw.text(4, '0123456789')}`;
    return (
      [
        `โทรหาเราได้ที่ ${mobile} ตลอด 24 ชั่วโมง`,
        `Call us on +66 ${mobile.slice(1).replace(/-/g, ' ')} or 02-${draw.text(3, '0123456789')}-${draw.text(4, '0123456789')}.`,
        `สายด่วน 1${draw.text(3, '0123456789')} หรือ (02) ${draw.text(3, '0123456789')} ${draw.text(4, '0123456789')} ต่อ ${draw.int(100, 999)}`,
        `เบอร์: ${mobile.replace(/-/g, '')} / แฟกซ์: 0-2${draw.text(3, '0123456789')}-${draw.text(4, '0123456789')}`,
      ][index % 4] ?? ''
    );
  });

const versionStrings: NegativeClass = (draw) =>
  Array.from({ length: 20 }, (_, index) => {
    const version = `${draw.int(0, 30)}.${draw.int(0, 40)}.${draw.int(0, 200)}`;
    return (
      [
        `อัปเดต Node.js เป็น v${version} แล้วรัน npm ci ใหม่`,
        `Download node-v${version}-linux-x64.tar.xz and python-3.12.${draw.int(0, 9)}-amd64.exe`,
        `FROM node:${draw.int(18, 22)}.${draw.int(0, 20)}-alpine3.${draw.int(17, 21)} AS build`,
        `Release ${version}-beta.${draw.int(1, 9)}+exp.sha.${draw.text(7, '0123456789abcdef')} fixes the memory leak.`,
        `เวอร์ชัน ${version}-rc.${draw.int(1, 5)} (build ${draw.number(8)}) ใช้กับ Android 14 ขึ้นไป`,
      ][index % 5] ?? ''
    );
  });

const hyphenatedWords = [
  'This state-of-the-art, well-known, easy-to-use library is a must-have for day-to-day work.',
  'Use scikit-learn (sk-learn) for a quick-and-dirty baseline before a full-blown deep-learning model.',
  'The anti-money-laundering-compliance-officer-training-programme runs twice a year.',
  'เธอเป็น co-founder ของ start-up ด้าน e-commerce แบบ business-to-business ในกรุงเทพฯ',
  'A self-explanatory, up-to-date, step-by-step guide to end-to-end encryption for non-technical readers.',
  'The so-called mother-in-law-friendly user-interface redesign is work-in-progress.',
  'Key-value stores, read-through caches and write-behind queues are all well-understood trade-offs.',
  'ใช้ pre-commit hook กับ lint-staged และ type-check ก่อน push ทุกครั้ง',
  'Spelled out: T-H-A-I-L-A-N-D, and with spaces: B A N G K O K — both are just the country and the city.',
  'Follow-up: the long-term, high-availability, multi-region set-up needs a read-replica-per-region plan.',
];

const passwordCode = [
  'const password = process.env.DB_PASSWORD;\nif (!password) throw new Error("DB_PASSWORD is not set");',
  'def login(username: str, password: str) -> bool:\n    return verify(password, user.password_hash)',
  '<input type="password" name="password" autocomplete="current-password">',
  'SELECT id FROM users WHERE email = ? AND password_hash = ?',
  'ตั้งรหัสผ่านใหม่ได้ที่เมนู "ลืมรหัสผ่าน" รหัสผ่านต้องยาวอย่างน้อย 12 ตัวอักษร',
  'interface LoginForm { username: string; password: string; rememberMe: boolean }',
  'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
  'env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}',
  'curl -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me',
  'password: ${DB_PASSWORD}\nusername: ${DB_USER}',
  'const token = await getAccessToken(); // the token expires after an hour',
  'ถ้าลืม password ให้กด reset password แล้วระบบจะส่งลิงก์ไปทางอีเมล',
  'The secret_key setting must be set in production; the default secret is rejected at startup.',
  'hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=12))',
  'คีย์ API ของคุณดูได้ที่หน้า Settings > API keys ห้ามแชร์คีย์ให้ผู้อื่น',
];

const pemHeaderProse = [
  'ไฟล์ควรขึ้นต้นด้วย `-----BEGIN OPENSSH PRIVATE KEY-----` และลงท้ายด้วย `-----END OPENSSH PRIVATE KEY-----`',
  'The file should begin with -----BEGIN RSA PRIVATE KEY----- — if it begins with -----BEGIN PUBLIC KEY----- you exported the wrong half.',
  'ถ้าเปิดไฟล์แล้วเห็นบรรทัด "-----BEGIN PRIVATE KEY-----" แปลว่าเป็นคีย์แบบ PKCS#8 อย่าส่งไฟล์นี้ให้ใคร',
  'Error: expected "-----BEGIN EC PRIVATE KEY-----" but found "-----BEGIN CERTIFICATE-----".',
  'A PEM file is a header like `-----BEGIN ENCRYPTED PRIVATE KEY-----`, base64 lines, and a matching END line.',
  'ssh-keygen writes -----BEGIN OPENSSH PRIVATE KEY----- files since OpenSSH 7.8; older ones said -----BEGIN RSA PRIVATE KEY-----.',
  'ตัวอย่างรูปแบบ (ไม่ใช่คีย์จริง):\n```\n-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----\n```',
  'Replace the placeholder:\n-----BEGIN PRIVATE KEY-----\n<your private key here>\n-----END PRIVATE KEY-----',
];

export const proseClasses: Record<string, NegativeClass> = {
  'thai-digits-dates': thaiDigitsDates,
  'phone-number': phoneNumbers,
  'version-string': versionStrings,
  'hyphenated-words': () => hyphenatedWords,
  'code-without-value': () => passwordCode,
  'pem-header-prose': () => pemHeaderProse,
};
