import { TelegramError } from 'telegraf';
import { PlatformConfigError } from '../../src/shared/platform-config-error.js';

// The Telegram settings a start can find wrong, as PlatformConfigError (src/shared/platform-config-error.ts): the
// start-up stops with the line naming the variable. Anything else (the network, Telegram's 5xx) is retried.

/** getMe's refusal of the token: 401 for a revoked or wrong one, 404 for one not of a token's shape. */
export function refusedToken(error: unknown): PlatformConfigError | undefined {
  if (!(error instanceof TelegramError) || ![401, 403, 404].includes(error.code)) return undefined;
  return new PlatformConfigError(
    'TELEGRAM_BOT_TOKEN',
    {
      th: `TELEGRAM_BOT_TOKEN ถูก Telegram ปฏิเสธ (${error.code}): คัดลอกโทเค็นของบอทจาก @BotFather (/mybots → API Token) มาใส่ใหม่ แล้วเริ่มบอทอีกครั้ง`,
      en: `TELEGRAM_BOT_TOKEN was refused by Telegram (${error.code}): copy the bot's token again from @BotFather (/mybots → API Token), then start the bot again`,
    },
    { cause: error },
  );
}

/** setWebhook's 400: Telegram will not use that URL (not HTTPS, a port it does not allow, a bad certificate). */
export function refusedWebhookUrl(error: unknown): PlatformConfigError | undefined {
  if (!(error instanceof TelegramError) || error.code !== 400) return undefined;
  return new PlatformConfigError(
    'TELEGRAM_WEBHOOK_URL',
    {
      th: 'TELEGRAM_WEBHOOK_URL ถูก Telegram ปฏิเสธ (400): ต้องเป็น URL แบบ https:// ที่พอร์ต 443, 80, 88 หรือ 8443 และมีใบรับรองที่ใช้ได้ หรือลบค่านี้ออกเพื่อใช้ long polling',
      en: 'TELEGRAM_WEBHOOK_URL was refused by Telegram (400): it must be an https:// URL on port 443, 80, 88 or 8443 with a valid certificate; or unset it to use long polling',
    },
    { cause: error },
  );
}

export const missingWebhookSecret = (): PlatformConfigError =>
  new PlatformConfigError('TELEGRAM_WEBHOOK_SECRET', {
    th: 'ต้องตั้ง TELEGRAM_WEBHOOK_SECRET เมื่อใช้ TELEGRAM_WEBHOOK_URL: Telegram ส่งค่านี้มากับทุกอัปเดต เพื่อให้บอทปฏิเสธอัปเดตปลอมได้',
    en: 'TELEGRAM_WEBHOOK_SECRET is required when TELEGRAM_WEBHOOK_URL is set: Telegram sends it with every update so forged ones are refused',
  });

export const malformedWebhookSecret = (): PlatformConfigError =>
  new PlatformConfigError('TELEGRAM_WEBHOOK_SECRET', {
    th: 'TELEGRAM_WEBHOOK_SECRET ต้องยาว 1–256 ตัวอักษร ใช้ได้เฉพาะ A–Z, a–z, 0–9, _ และ -',
    en: 'TELEGRAM_WEBHOOK_SECRET must be 1–256 characters of A–Z, a–z, 0–9, _ and -',
  });
