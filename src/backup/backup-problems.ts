import type { Localized } from '../shared/i18n.js';

// What can stop a backup or a restore, each naming the file or folder and what to do next.

export const backupProblems = {
  dataDirMissing: {
    th: 'ไม่พบ DATA_DIR={dataDir}: ไม่มีข้อมูลให้สำรอง ตรวจค่า DATA_DIR ใน .env',
    en: 'DATA_DIR={dataDir} does not exist: there is nothing to back up; check DATA_DIR in .env',
  },
  notAFolder: {
    th: '{folder} ไม่ใช่โฟลเดอร์',
    en: '{folder} is not a folder',
  },
  targetInsideDataDir: {
    th: 'เก็บข้อมูลสำรองไว้ใน DATA_DIR ไม่ได้ ({target} อยู่ใน {dataDir}): เลือกโฟลเดอร์อื่น ดีที่สุดคือบนดิสก์อื่น',
    en: 'a backup cannot go inside DATA_DIR ({target} is inside {dataDir}): choose another folder, best on another disk',
  },
  databaseFailed: {
    th: 'สำรองฐานข้อมูล {file} ไม่ได้: {reason}',
    en: 'could not back up the database {file}: {reason}',
  },
  fileFailed: {
    th: 'คัดลอกไฟล์ {file} ไม่ได้: {reason}',
    en: 'could not copy the file {file}: {reason}',
  },
  manifestMissing: {
    th: 'ไม่พบ manifest.json ใน {folder}: โฟลเดอร์นี้ไม่ใช่ข้อมูลสำรองของ Saeng หรือสำรองไม่เสร็จ',
    en: 'there is no manifest.json in {folder}: it is not a Saeng backup, or the backup did not finish',
  },
  manifestUnreadable: {
    th: 'อ่าน {file} ไม่ได้ (ไฟล์เสียหายหรือไม่ใช่ของ Saeng): {reason}',
    en: 'cannot read {file} (damaged, or not made by Saeng): {reason}',
  },
  fileMissing: {
    th: 'ข้อมูลสำรองไม่ครบ: ไม่พบไฟล์ {file} ที่ manifest.json ระบุไว้ จึงไม่นำกลับมาใช้',
    en: 'the backup is incomplete: {file}, listed in manifest.json, is missing; nothing was restored',
  },
  fileDamaged: {
    th: 'ข้อมูลสำรองเสียหาย: ไฟล์ {file} ไม่ตรงกับ manifest.json ({detail}) จึงไม่นำกลับมาใช้ ลองใช้ข้อมูลสำรองชุดอื่น',
    en: 'the backup is damaged: {file} does not match manifest.json ({detail}); nothing was restored; try another backup',
  },
  databaseNotChecked: {
    th: 'ฐานข้อมูล {file} ในข้อมูลสำรองนี้ไม่ผ่านการตรวจตอนสำรอง (integrity_check: {result}) จึงไม่นำกลับมาใช้ ลองใช้ข้อมูลสำรองชุดอื่น',
    en: 'the database {file} in this backup failed its check when the backup was made (integrity_check: {result}); nothing was restored; try another backup',
  },
  databaseDamaged: {
    th: 'ฐานข้อมูล {file} ที่นำกลับจากข้อมูลสำรองนี้ไม่ผ่านการตรวจ (integrity_check: {result}) จึงไม่นำกลับมาใช้ DATA_DIR เดิมยังอยู่ที่เดิม ไม่มีอะไรถูกเปลี่ยน ลองใช้ข้อมูลสำรองชุดอื่น',
    en: 'the database {file} restored from this backup fails its check (integrity_check: {result}); nothing was restored and DATA_DIR is as it was; try another backup',
  },
  botRunning: {
    th: 'Saeng ยังทำงานอยู่กับ DATA_DIR={dataDir} (pid {pid} เริ่มเมื่อ {startedAt}): หยุดบอทก่อน (เช่น npx pm2 stop saeng) แล้วลองใหม่ ถ้าแน่ใจว่าบอทไม่ได้ทำงานแล้ว ให้ลบไฟล์ {file}',
    en: 'Saeng is still running on DATA_DIR={dataDir} (pid {pid}, started {startedAt}): stop it first (e.g. npx pm2 stop saeng), then try again; if you are sure it is not running, delete {file}',
  },
  moveFailed: {
    th: 'ย้าย {from} ไปเป็น {to} ไม่ได้ ({reason}): ข้อมูลเดิมยังอยู่ที่เดิม ไม่มีอะไรถูกเปลี่ยน',
    en: 'could not move {from} to {to} ({reason}): the current data is where it was; nothing was changed',
  },
  putInPlaceFailed: {
    th: 'นำข้อมูลสำรองไปไว้ที่ {dataDir} ไม่ได้ ({reason}): ข้อมูลสำรองที่ตรวจแล้วอยู่ที่ {staging} และข้อมูลเดิมอยู่ที่ {aside}',
    en: 'could not put the backup in place at {dataDir} ({reason}): the checked copy of the backup is in {staging} and the previous data in {aside}',
  },
} satisfies Record<string, Localized>;
