import type { Localized } from '../shared/i18n.js';

// The words every admin page shares (the layout, log-in, refusals); each page keeps its own beside it.

export const webTexts = {
  siteName: { th: 'แสง · หน้าผู้ดูแล', en: 'Saeng · admin' },
  navOverview: { th: 'ภาพรวม', en: 'Overview' },
  navKnowledge: { th: 'คลังความรู้', en: 'Knowledge bases' },
  navGroups: { th: 'กลุ่ม', en: 'Groups' },
  navUsage: { th: 'การใช้งาน', en: 'Usage' },
  navSessions: { th: 'การเข้าสู่ระบบ', en: 'Sessions' },
  switchLanguage: { th: 'English', en: 'ภาษาไทย' },
  signedInAs: { th: 'เข้าสู่ระบบเป็น {name}', en: 'Signed in as {name}' },
  scopeGlobal: { th: 'ผู้ดูแลระบบ (ทุกกลุ่ม)', en: 'bot admin (every group)' },
  scopeSpaces: { th: 'ผู้ดูแลกลุ่ม ({count} กลุ่ม)', en: 'group admin ({count} groups)' },
  logout: { th: 'ออกจากระบบ', en: 'Log out' },
  loginTitle: { th: 'เข้าสู่หน้าผู้ดูแล', en: 'Open the admin page' },
  loginExplain: {
    th: 'ลิงก์นี้ใช้ได้ครั้งเดียว กดปุ่มด้านล่างเพื่อเข้าสู่ระบบบนเบราว์เซอร์นี้',
    en: 'This link works once. Press the button to sign in on this browser.',
  },
  loginButton: { th: 'เข้าสู่ระบบ', en: 'Sign in' },
  loginRefused: {
    th: 'ลิงก์นี้ใช้ไม่ได้แล้ว (ใช้ไปแล้วหรือหมดเวลา) พิมพ์ /web ในแชทกับบอทเพื่อขอลิงก์ใหม่',
    en: 'This link no longer works (already used, or expired). Type /web in a chat with the bot for a new one.',
  },
  signedOut: {
    th: 'ยังไม่ได้เข้าสู่ระบบ หรือหมดเวลาแล้ว พิมพ์ /web ในแชทกับบอทเพื่อขอลิงก์เข้าสู่ระบบ',
    en: 'You are not signed in, or your session ended. Type /web in a chat with the bot for a sign-in link.',
  },
  forbidden: { th: 'คุณไม่มีสิทธิ์ดูแลส่วนนี้', en: 'You are not an admin of this.' },
  crossSite: {
    th: 'ปฏิเสธคำขอที่ไม่ได้มาจากหน้านี้ (ป้องกันการปลอมคำขอข้ามเว็บ) กรุณาเปิดหน้าใหม่แล้วลองอีกครั้ง',
    en: 'Refused a request that did not come from this page (cross-site request protection). Reload the page and try again.',
  },
  notFound: { th: 'ไม่พบหน้านี้', en: 'Page not found' },
  failed: { th: 'ขออภัย เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง', en: 'Sorry, something went wrong. Please try again.' },
  badForm: { th: 'ข้อมูลที่ส่งมาไม่ถูกต้อง', en: 'The form sent was not valid.' },
  back: { th: 'กลับ', en: 'Back' },
} satisfies Record<string, Localized>;
