import type { Localized } from '../shared/i18n.js';

// What `npm run backup` / `npm run restore` / `list` print (src/backup-cli.ts).

export const cliTexts = {
  usage: {
    th: [
      'วิธีใช้:',
      '  npm run backup -- <โฟลเดอร์>              สำรองข้อมูลทั้งหมดใน DATA_DIR ไปไว้ในโฟลเดอร์ใหม่ภายใน <โฟลเดอร์> (ทำได้ขณะบอททำงาน)',
      '  npm run restore -- <โฟลเดอร์ข้อมูลสำรอง>   นำข้อมูลสำรองชุดนั้นกลับมาใช้ (หยุดบอทก่อน ข้อมูลเดิมถูกย้ายไปเก็บไว้ ไม่ถูกลบ)',
      '  npx tsx src/backup-cli.ts list <โฟลเดอร์>   แสดงข้อมูลสำรองที่มีในโฟลเดอร์',
    ].join('\n'),
    en: [
      'usage:',
      '  npm run backup -- <folder>               copy everything in DATA_DIR into a new folder inside <folder> (fine while the bot runs)',
      '  npm run restore -- <backup folder>       put that backup back in place (stop the bot first; the current data is moved aside, never deleted)',
      '  npx tsx src/backup-cli.ts list <folder>  show the backups in a folder',
    ].join('\n'),
  },
  missingCommand: { th: 'ไม่ได้ระบุคำสั่ง (backup, restore หรือ list)', en: 'missing command (backup, restore or list)' },
  unknownCommand: { th: 'ไม่รู้จักคำสั่ง {command} (ใช้ได้: backup, restore, list)', en: 'unknown command {command} (use backup, restore or list)' },
  missingFolder: { th: 'ไม่ได้ระบุโฟลเดอร์', en: 'missing folder' },
  tooManyArguments: { th: 'ระบุได้โฟลเดอร์เดียว: {extra}', en: 'only one folder may be given: {extra}' },
  backupFailed: { th: 'สำรองข้อมูลไม่สำเร็จ: {problem}', en: 'backup failed: {problem}' },
  restoreFailed: { th: 'นำข้อมูลสำรองกลับมาไม่สำเร็จ: {problem}', en: 'restore failed: {problem}' },
  listFailed: { th: 'แสดงรายการข้อมูลสำรองไม่ได้: {problem}', en: 'cannot list the backups: {problem}' },
  folderMissing: { th: 'ไม่พบโฟลเดอร์ {folder}', en: '{folder} does not exist' },
  backupDone: { th: 'สำรองข้อมูลเสร็จแล้ว: {folder}', en: 'backup done: {folder}' },
  backupSummary: {
    th: '  {files} ไฟล์ รวม {size} (เป็นฐานข้อมูล {databases} ไฟล์: {names})',
    en: '  {files} files, {size} in all ({databases} of them databases: {names})',
  },
  databasesChecked: { th: '  ตรวจฐานข้อมูลทุกไฟล์ในข้อมูลสำรองแล้ว ไม่พบความเสียหาย', en: '  every database in the backup was checked: no damage found' },
  databaseDamaged: {
    th: 'สำเนาของฐานข้อมูล {file} ไม่ผ่านการตรวจ (integrity_check: {result}): ฐานข้อมูลนี้ใน DATA_DIR อาจเสียหาย อย่าเพิ่งลบข้อมูลสำรองชุดเก่า',
    en: 'the copy of the database {file} failed its check (integrity_check: {result}): that database in DATA_DIR may be damaged; keep your older backups',
  },
  skipped: { th: '  ข้ามไป ไม่ได้สำรอง: {path} ({reason})', en: '  left out: {path} ({reason})' },
  restoreHint: { th: 'นำกลับมาใช้ด้วยคำสั่ง: npm run restore -- {folder}', en: 'to restore it: npm run restore -- {folder}' },
  restored: {
    th: 'นำข้อมูลสำรองกลับมาแล้ว: {backup} (สำรองเมื่อ {created} โดย Saeng {version})',
    en: 'restored: {backup} (made {created} by Saeng {version})',
  },
  restoredInto: {
    th: '  DATA_DIR={dataDir}: {files} ไฟล์ ตรวจตรงกับ manifest.json ครบทุกไฟล์',
    en: '  DATA_DIR={dataDir}: {files} files, each matching manifest.json',
  },
  setAside: {
    th: '  ข้อมูลเดิมย้ายไปไว้ที่ {aside} (ไม่ได้ลบ ลบเองได้เมื่อแน่ใจว่าไม่ต้องใช้แล้ว)',
    en: '  the previous data was moved to {aside} (not deleted; remove it yourself once you are sure you do not need it)',
  },
  startAgain: { th: 'เริ่มบอทได้เลย (เช่น npx pm2 start saeng หรือ npm start)', en: 'you can start the bot again (e.g. npx pm2 start saeng, or npm start)' },
  backupsHere: {
    th: 'ในโฟลเดอร์นี้มีข้อมูลสำรอง {count} ชุด ให้ระบุชุดใดชุดหนึ่ง เช่นชุดล่าสุด: npm run restore -- {newest}',
    en: 'this folder holds {count} backups: name one of them, e.g. the newest: npm run restore -- {newest}',
  },
  listHeading: { th: 'ข้อมูลสำรองใน {folder} ({count} ชุด เก่าสุดก่อน):', en: 'backups in {folder} ({count}, oldest first):' },
  listEntry: { th: '  {name}  สำรองเมื่อ {created}  Saeng {version}  {files} ไฟล์ {size}', en: '  {name}  made {created}  Saeng {version}  {files} files {size}' },
  listBroken: { th: '  {name}  ใช้ไม่ได้: {problem}', en: '  {name}  unusable: {problem}' },
  listEmpty: { th: 'ไม่พบข้อมูลสำรองใน {folder}', en: 'no backups in {folder}' },
} satisfies Record<string, Localized>;

export const skippedReasons = {
  'symbolic-link': { th: 'เป็นลิงก์ (symbolic link)', en: 'a symbolic link' },
  'not-a-regular-file': { th: 'ไม่ใช่ไฟล์ธรรมดา', en: 'not a regular file' },
  vanished: { th: 'ถูกลบไประหว่างสำรอง', en: 'deleted during the backup' },
} satisfies Record<string, Localized>;
