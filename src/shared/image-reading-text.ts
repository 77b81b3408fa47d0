import { say, type Localized } from './i18n.js';
import type { ImageRefusal, OcrFailure } from './image-reading.js';
import type { Language } from './types.js';

// What the user (and the model) is told when an image cannot be used or its text cannot be read. Here on the
// floor because the router, the agent's read_image and knowledge-base ingest all say it.

const refusals: Record<ImageRefusal['code'], Localized> = {
  'not-an-image': {
    th: 'ไฟล์นี้ไม่ใช่รูปภาพ (รองรับ JPEG, PNG, WebP และ GIF)',
    en: 'this file is not an image (JPEG, PNG, WebP and GIF are supported)',
  },
  'unsupported-format': {
    th: 'ยังไม่รองรับรูปแบบ {format} กรุณาส่งเป็น JPEG หรือ PNG (หรือแคปหน้าจอแล้วส่งแทน)',
    en: '{format} images are not supported; please send it as JPEG or PNG (or a screenshot of it)',
  },
  'too-large': {
    th: 'รูปใหญ่เกินไป ({size} เกินขีดจำกัด {limit})',
    en: 'the image is too large ({size}, the limit is {limit})',
  },
  'too-many-pixels': {
    th: 'รูปมีความละเอียดสูงเกินไป ({pixels} ล้านพิกเซล เกินขีดจำกัด {limit} ล้านพิกเซล) กรุณาย่อรูปแล้วส่งใหม่',
    en: 'the image has too many pixels ({pixels} megapixels, the limit is {limit}); please send a smaller one',
  },
  'bad-shape': {
    th: 'รูปยาวหรือกว้างผิดปกติ ({width} × {height} พิกเซล; ด้านยาวได้ไม่เกิน {maxEdge} พิกเซล และยาวได้ไม่เกิน {maxAspect} เท่าของด้านสั้น)',
    en: 'the image has an unusual shape ({width} x {height} pixels; the long edge may be at most {maxEdge} pixels and at most {maxAspect} times the short one)',
  },
  'too-much-data': {
    th: 'รูปนี้ต้องใช้หน่วยความจำมากเกินไปเมื่อเปิด ({size} เกินขีดจำกัด {limit}: สีแบบ 16 บิตหรือภาพเคลื่อนไหวหลายเฟรม) กรุณาส่งเป็นรูปนิ่ง JPEG หรือ PNG ธรรมดา',
    en: 'opening this image would take too much memory ({size}, the limit is {limit}: 16-bit colour or many animation frames); please send a still JPEG or PNG',
  },
  'metadata-too-large': {
    th: 'ข้อมูลแฝงในไฟล์รูป (โปรไฟล์สีหรือข้อความ) ใหญ่ผิดปกติ (เกิน {limit}) กรุณาแคปหน้าจอแล้วส่งใหม่',
    en: 'the data hidden in the image file (a colour profile or text) is unusually large (over {limit}); please send a screenshot of it instead',
  },
  'too-slow': {
    th: 'เปิดรูปนี้นานเกิน {seconds} วินาทีจึงหยุดไว้ กรุณาส่งรูปที่เล็กลง',
    en: 'opening this image took longer than {seconds} seconds and was stopped; please send a smaller one',
  },
  corrupt: {
    th: 'ไฟล์รูปเสียหรือไม่สมบูรณ์ กรุณาส่งใหม่',
    en: 'the image file is damaged or incomplete; please send it again',
  },
};

const ocrFailures: Record<Exclude<OcrFailure['code'], 'refused'>, Localized> = {
  unavailable: {
    th: 'เครื่องนี้ยังอ่านตัวหนังสือในรูปไม่ได้ เพราะยังไม่ได้ติดตั้งโปรแกรม OCR (tesseract)',
    en: 'this machine cannot read text in images yet: the OCR program (tesseract) is not installed',
  },
  timeout: {
    th: 'อ่านตัวหนังสือในรูปนานเกิน {seconds} วินาทีจึงหยุดไว้',
    en: 'reading the text took longer than {seconds} seconds and was stopped',
  },
  failed: { th: 'โปรแกรม OCR อ่านรูปนี้ไม่สำเร็จ', en: 'the OCR program could not read this image' },
  cancelled: { th: 'การอ่านรูปถูกยกเลิก', en: 'reading the image was cancelled' },
};

function megapixels(pixels: number): string {
  return (Math.round(pixels / 100_000) / 10).toString();
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Why an image was not accepted, as a clause ("this file is not an image …"). */
export function describeImageRefusal(refusal: ImageRefusal, language: Language): string {
  const message = refusals[refusal.code];
  switch (refusal.code) {
    case 'unsupported-format':
      return say(message, language, { format: refusal.format });
    case 'too-large':
      return say(message, language, { size: sizeText(refusal.bytes), limit: sizeText(refusal.limitBytes) });
    case 'too-many-pixels':
      return say(message, language, { pixels: megapixels(refusal.pixels), limit: megapixels(refusal.limitPixels) });
    case 'bad-shape':
      return say(message, language, {
        width: refusal.width.toLocaleString('en-US'),
        height: refusal.height.toLocaleString('en-US'),
        maxEdge: refusal.maxEdge.toLocaleString('en-US'),
        maxAspect: refusal.maxAspect,
      });
    case 'too-much-data':
      return say(message, language, { size: sizeText(refusal.bytes), limit: sizeText(refusal.limitBytes) });
    case 'metadata-too-large':
      return say(message, language, { limit: sizeText(refusal.limitBytes) });
    case 'too-slow':
      return say(message, language, { seconds: refusal.seconds });
    case 'not-an-image':
    case 'corrupt':
      return say(message, language);
  }
}

/** Why an image's text could not be read, as a clause. */
export function describeOcrFailure(failure: OcrFailure, language: Language): string {
  switch (failure.code) {
    case 'refused':
      return describeImageRefusal(failure.refusal, language);
    case 'timeout':
      return say(ocrFailures.timeout, language, { seconds: Math.round(failure.timeoutMs / 1000) });
    case 'unavailable':
    case 'failed':
    case 'cancelled':
      return say(ocrFailures[failure.code], language);
  }
}
