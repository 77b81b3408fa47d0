import type { Localized } from '../shared/i18n.js';

// What `npm run kb-to-postgres` prints (src/knowledge-copy-cli.ts).

export const copyTexts = {
  usage: {
    th: [
      'วิธีใช้: npm run kb-to-postgres [-- --replace]',
      '  คัดลอกฐานความรู้ทั้งหมดจาก DATA_DIR/knowledge.db ไปยัง PostgreSQL ที่ DATABASE_URL (เอกสาร ข้อความ หน้า เวกเตอร์ และการผูกกับห้องแชต)',
      '  --replace   ลบฐานความรู้ที่มีอยู่ใน PostgreSQL ก่อนคัดลอก (ถ้าไม่ระบุ จะไม่ทำอะไรเมื่อปลายทางมีฐานความรู้อยู่แล้ว)',
    ].join('\n'),
    en: [
      'usage: npm run kb-to-postgres [-- --replace]',
      '  copies every knowledge base of DATA_DIR/knowledge.db into the PostgreSQL at DATABASE_URL (documents, passages, pages, vectors and chat bindings)',
      '  --replace   delete the knowledge bases already in PostgreSQL first (without it, nothing is done when the target has any)',
    ].join('\n'),
  },
  unexpectedArguments: { th: 'ไม่รู้จักอาร์กิวเมนต์: {extra}', en: 'unexpected arguments: {extra}' },
  missingDatabaseUrl: {
    th: 'ยังไม่ได้ตั้ง DATABASE_URL: ใส่ที่อยู่ PostgreSQL เช่น DATABASE_URL=postgres://saeng@127.0.0.1:5432/saeng ใน .env',
    en: 'DATABASE_URL is not set: put the PostgreSQL address in .env, e.g. DATABASE_URL=postgres://saeng@127.0.0.1:5432/saeng',
  },
  noSqliteFile: { th: 'ไม่พบไฟล์ฐานความรู้ {file}: ตรวจ DATA_DIR', en: 'no knowledge base file at {file}: check DATA_DIR' },
  targetNotEmpty: {
    th: 'ไม่ได้คัดลอก: PostgreSQL ที่ {address} มีฐานความรู้อยู่แล้ว {count} ฐาน: {names}\nใช้ npm run kb-to-postgres -- --replace เพื่อลบของเดิมแล้วคัดลอกใหม่',
    en: 'nothing copied: the PostgreSQL at {address} already holds {count} knowledge bases: {names}\nuse npm run kb-to-postgres -- --replace to delete them and copy again',
  },
  copied: {
    th: 'คัดลอกจาก {file} ไปยัง {address} แล้ว: ฐานความรู้ {knowledgeBases} ฐาน, เอกสาร {documents} ไฟล์, ข้อความ {chunks} ช่วง (มีเวกเตอร์ {vectors}), การผูกกับห้องแชต {bindings} รายการ',
    en: 'copied {file} to {address}: {knowledgeBases} knowledge bases, {documents} documents, {chunks} passages ({vectors} with vectors), {bindings} chat bindings',
  },
  nextStep: {
    th: 'ตั้ง DATABASE_URL ไว้ใน .env แล้วเริ่มบอทใหม่ บอทจะใช้ฐานความรู้ใน PostgreSQL (ไฟล์ knowledge.db เดิมไม่ถูกแก้ไข)',
    en: 'keep DATABASE_URL in .env and restart the bot: it will use the knowledge bases in PostgreSQL (knowledge.db is left as it was)',
  },
  failed: { th: 'คัดลอกไม่สำเร็จ: {problem}', en: 'copy failed: {problem}' },
} satisfies Record<string, Localized>;
