import type { Localized } from '../../shared/i18n.js';

export const knowledgeHelp: Localized = {
  th: [
    '**คลังความรู้ (/kb)** — สำหรับผู้ดูแล',
    '- /kb list — คลังความรู้ของที่นี่ (🔗 = ใช้ในห้องนี้)',
    '- /kb create <ชื่อ> [คำอธิบาย] — สร้างคลังใหม่',
    '- /kb add <คลัง> + แนบไฟล์ (.txt .md .html .pdf .docx .csv หรือภาพ .png .jpg .webp) หรือพิมพ์ข้อความต่อท้าย — เพิ่มเอกสาร',
    '- /kb docs <คลัง> — รายการเอกสาร',
    '- /kb remove-doc <คลัง> <#เลข> — ลบเอกสาร',
    '- /kb search <คลัง> <คำค้น> — ทดลองค้นหา',
    '- /kb bind <คลัง> · /kb unbind <คลัง> — ใช้/เลิกใช้คลังในห้องนี้',
    '- /kb info <คลัง> — รายละเอียด',
    '- /kb delete <คลัง> — ลบทั้งคลัง (ต้องยืนยันด้วยรหัส)',
  ].join('\n'),
  en: [
    '**Knowledge bases (/kb)** — for admins',
    '- /kb list — the knowledge bases here (🔗 = used in this chat)',
    '- /kb create <name> [description] — create one',
    '- /kb add <kb> + attached files (.txt .md .html .pdf .docx .csv, or images .png .jpg .webp) or text after the command — add documents',
    '- /kb docs <kb> — list its documents',
    '- /kb remove-doc <kb> <#number> — remove a document',
    '- /kb search <kb> <query> — try a search',
    '- /kb bind <kb> · /kb unbind <kb> — use it in this chat, or stop',
    '- /kb info <kb> — details',
    '- /kb delete <kb> — delete it all (asks for a confirmation code)',
  ].join('\n'),
};
