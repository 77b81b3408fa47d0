import { scanForCredentials } from './src/dlp/scan.ts';
import { thaiMessages } from './bench/dlp-timing.ts';
import { readFileSync } from 'node:fs';
const paragraphs = ['ระบบจะตรวจข้อความทุกบรรทัดก่อนส่งออก เพื่อไม่ให้รหัสลับหรือโทเคนหลุดออกไปกับคำตอบ ทั้งในกลุ่มและแชทส่วนตัว ประชุมวันที่ 12 ธ.ค. 2569 เวลา 09:30 น. งบประมาณ 1,250,000 บาท', 'ทีมงานได้สรุปผลการทดสอบว่า ระบบรองรับผู้ใช้ได้ 5,000 คนพร้อมกัน โดยใช้หน่วยความจำไม่เกิน 8 GB และตอบสนองภายใน 2 วินาที'];
const messages = thaiMessages(paragraphs, 4096, 20);
for (let i = 0; i < 300; i++) scanForCredentials(messages[i % 20]!);
const t: number[] = [];
for (let i = 0; i < 3000; i++) { const s = performance.now(); scanForCredentials(messages[i % 20]!); t.push(performance.now() - s); }
t.sort((a, b) => a - b);
console.log('p50', t[1500].toFixed(3), 'p99', t[2970].toFixed(3));
