import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { ModelError, type ModelErrorKind } from './types.js';

// What the user hears when the model server fails: what failed and what to check, in a sentence or two.
const messages: Record<ModelErrorKind, Localized> = {
  unreachable: {
    th: 'ขออภัย ติดต่อเซิร์ฟเวอร์โมเดลไม่ได้ กรุณาตรวจว่า llama-server หรือ Ollama กำลังทำงานอยู่ และ MODEL_BASE_URL ถูกต้อง แล้วลองใหม่อีกครั้ง',
    en: 'Sorry, I cannot reach the model server. Check that llama-server or Ollama is running and that MODEL_BASE_URL is right, then try again.',
  },
  timeout: {
    th: 'ขออภัย โมเดลตอบช้าเกินเวลาที่กำหนด (MODEL_TIMEOUT_MS) เครื่องอาจทำงานหนักอยู่ กรุณาลองใหม่อีกครั้งหรือถามให้สั้นลง',
    en: 'Sorry, the model took longer than allowed (MODEL_TIMEOUT_MS). The machine may be busy; please try again or ask something shorter.',
  },
  loading: {
    th: 'โมเดลกำลังโหลดอยู่ กรุณารอสักครู่แล้วลองใหม่อีกครั้ง',
    en: 'The model is still loading. Please wait a moment and try again.',
  },
  'server-error': {
    th: 'ขออภัย เซิร์ฟเวอร์โมเดลขัดข้อง (HTTP {status}) กรุณาดูบันทึกของเซิร์ฟเวอร์โมเดล แล้วลองใหม่อีกครั้ง',
    en: 'Sorry, the model server failed (HTTP {status}). Check the model server logs and try again.',
  },
  'bad-request': {
    th: 'ขออภัย เซิร์ฟเวอร์โมเดลไม่รับคำขอ (HTTP {status}) กรุณาตรวจชื่อโมเดล (MODEL_NAME) และการตั้งค่าเซิร์ฟเวอร์',
    en: 'Sorry, the model server rejected the request (HTTP {status}). Check MODEL_NAME and the server settings.',
  },
  'tools-unsupported': {
    th: 'ขออภัย โมเดลนี้ไม่รองรับการเรียกเครื่องมือ ระบบจะตอบโดยไม่ใช้เครื่องมือในครั้งถัดไป กรุณาลองใหม่อีกครั้ง',
    en: 'Sorry, this model cannot call tools. I will answer without tools from now on; please try again.',
  },
  'context-overflow': {
    th: 'ขออภัย ข้อความยาวเกินกว่าที่โมเดลรับได้ ลองพิมพ์ /reset เพื่อล้างประวัติ หรือถามให้สั้นลง',
    en: 'Sorry, this is more text than the model can take. Try /reset to clear the history, or ask something shorter.',
  },
  'invalid-response': {
    th: 'ขออภัย เซิร์ฟเวอร์โมเดลตอบกลับในรูปแบบที่อ่านไม่ได้ กรุณาตรวจว่า MODEL_BASE_URL ชี้ไปที่ API แบบ OpenAI (ลงท้ายด้วย /v1)',
    en: 'Sorry, the model server answered with something I cannot read. Check that MODEL_BASE_URL points at an OpenAI-compatible API (ending in /v1).',
  },
};

const unexpected: Localized = {
  th: 'ขออภัย เกิดข้อผิดพลาดระหว่างตอบคำถาม กรุณาลองใหม่อีกครั้ง',
  en: 'Sorry, something went wrong while answering. Please try again.',
};

export function modelErrorMessage(error: unknown, language: Language): string {
  if (error instanceof ModelError) return say(messages[error.kind], language, { status: error.status ?? '?' });
  return say(unexpected, language);
}
