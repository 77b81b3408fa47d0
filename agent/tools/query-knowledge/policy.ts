import type { Localized } from '../../../src/shared/i18n.js';

/**
 * The agentic-mode retrieval policy for the SYSTEM prompt, included once and byte-identically whenever
 * query_knowledge is registered (it names no KB, so it never changes between turns).
 */
export const knowledgePolicy: Localized = {
  th:
    'คลังความรู้ที่ผูกกับห้องสนทนานี้เป็นแหล่งข้อมูลหลักสำหรับข้อเท็จจริงในขอบเขตขององค์กร ' +
    'ระบบไม่ค้นคลังความรู้ให้อัตโนมัติ: เมื่อถูกถามเรื่องข้อเท็จจริง นโยบาย ขั้นตอนการทำงาน สินค้าหรือบริการ หรือคำถามเฉพาะด้าน ' +
    'ให้เรียก query_knowledge (action "query") ก่อนตอบ แล้วตอบจากข้อความที่ได้ ' +
    'เรียก action "list" เพื่อดูว่ามีคลังใดบ้าง ถ้าไม่มีคลังหรือไม่พบข้อมูลที่เกี่ยวข้อง ให้บอกตรง ๆ แล้วตอบตามปกติ',
  en:
    'The knowledge bases bound to this chat are the primary source for in-scope facts. ' +
    'No retrieval happens automatically: for questions about facts, policies, procedures, products or services, ' +
    'or other domain questions, call query_knowledge (action "query") before answering and answer from the passages it returns. ' +
    'Call action "list" to see which knowledge bases exist. If there is none, or nothing relevant, say so and answer normally.',
};
