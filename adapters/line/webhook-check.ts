import { HTTPFetchError, type messagingApi } from '@line/bot-sdk';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { lineErrorMessage } from './delivery.js';
import { lineWebhookPath } from './webhook.js';
import { trimTrailingSlashes } from '../../src/shared/trailing-slashes.js';

// Can LINE reach the bot? Asked of LINE itself: the webhook URL it has on file and whether "Use webhook" is on
// (GET /v2/bot/channel/webhook/endpoint), whether that URL is this bot's route when PUBLIC_BASE_URL says where the
// bot is, and a test delivery LINE makes to it (POST /v2/bot/channel/webhook/test: a signed empty event batch).
// Logged once at start and shown to admins in /status. Each call is bounded; any failure is a value and one line.

type WebhookClient = Pick<messagingApi.MessagingApiClient, 'getWebhookEndpoint' | 'testWebhookEndpoint'>;

export type WebhookCheck =
  | { kind: 'unknown'; problem: string }
  | {
      kind: 'checked';
      endpoint: string;
      active: boolean;
      /** PUBLIC_BASE_URL + /webhooks/line; undefined without PUBLIC_BASE_URL. */
      expected: string | undefined;
      delivery: { ok: true; statusCode: number } | { ok: false; statusCode: number; reason: string; detail: string } | { ok: false; problem: string };
    };

/** Each of the two calls; LINE's own test delivery waits 2 s for the bot, so 10 s leaves room for a slow network. */
export const webhookCheckTimeoutMs = 10_000;

function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from LINE within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

function problemOf(error: unknown): string {
  if (error instanceof HTTPFetchError) return `HTTP ${error.status}: ${lineErrorMessage(error)}`;
  return error instanceof Error ? error.message.slice(0, 200) : 'unknown error';
}

/** The bot's own webhook URL behind PUBLIC_BASE_URL (a path prefix in it kept, a trailing slash not doubled). */
export function expectedWebhookUrl(publicBaseUrl: string | undefined): string | undefined {
  return publicBaseUrl ? `${trimTrailingSlashes(publicBaseUrl)}${lineWebhookPath}` : undefined;
}

const sameUrl = (left: string, right: string): boolean => trimTrailingSlashes(left) === trimTrailingSlashes(right);

export async function checkLineWebhook(client: WebhookClient, publicBaseUrl: string | undefined, timeoutMs = webhookCheckTimeoutMs): Promise<WebhookCheck> {
  let info: messagingApi.GetWebhookEndpointResponse;
  try {
    info = await bounded(client.getWebhookEndpoint(), timeoutMs);
  } catch (error) {
    return { kind: 'unknown', problem: problemOf(error) };
  }
  const endpoint = typeof info.endpoint === 'string' ? info.endpoint.slice(0, 500) : '';
  const checked = { kind: 'checked' as const, endpoint, active: info.active === true, expected: expectedWebhookUrl(publicBaseUrl) };
  if (endpoint === '') return { ...checked, delivery: { ok: false, problem: 'no URL' } };
  try {
    const result = await bounded(client.testWebhookEndpoint({}), timeoutMs);
    const statusCode = typeof result.statusCode === 'number' ? result.statusCode : 0;
    if (result.success === true) return { ...checked, delivery: { ok: true, statusCode } };
    return { ...checked, delivery: { ok: false, statusCode, reason: String(result.reason).slice(0, 100), detail: String(result.detail).slice(0, 200) } };
  } catch (error) {
    return { ...checked, delivery: { ok: false, problem: problemOf(error) } };
  }
}

const strings = {
  unknown: {
    th: 'LINE webhook: ถาม LINE ไม่ได้ว่าตั้ง webhook URL ไว้อย่างไร ({problem})',
    en: 'LINE webhook: could not ask LINE which webhook URL it has ({problem})',
  },
  none: {
    th: 'LINE webhook: ยังไม่ได้ตั้ง Webhook URL ใน LINE Developers console (แท็บ Messaging API) — ตั้งเป็น {expected} แล้วเปิด "Use webhook"',
    en: 'LINE webhook: no Webhook URL is set in the LINE Developers console (Messaging API tab) — set it to {expected} and turn on "Use webhook"',
  },
  onFile: { th: 'LINE webhook: URL ที่ LINE ใช้คือ {endpoint}', en: 'LINE webhook: LINE has {endpoint}' },
  active: { th: 'เปิด "Use webhook" แล้ว', en: '"Use webhook" is on' },
  inactive: {
    th: 'แต่ "Use webhook" ปิดอยู่ — LINE จะไม่ส่งข้อความมาให้บอท เปิดได้ใน LINE Developers console แท็บ Messaging API',
    en: 'but "Use webhook" is off — LINE sends the bot nothing; turn it on in the LINE Developers console, Messaging API tab',
  },
  matches: { th: 'ตรงกับ PUBLIC_BASE_URL', en: 'matches PUBLIC_BASE_URL' },
  differs: { th: 'ไม่ตรงกับที่บอทรออยู่ ({expected})', en: 'differs from the bot’s own route ({expected})' },
  delivered: { th: 'ทดสอบส่งถึงบอทแล้ว (HTTP {status})', en: 'test delivery reached the bot (HTTP {status})' },
  refused: {
    th: 'ทดสอบส่งไม่ผ่าน: {reason} {detail} (HTTP {status}) — ตรวจว่าเข้าถึงที่อยู่นี้จากอินเทอร์เน็ตได้ (reverse proxy หรือ tunnel ไปที่ HTTP_PORT)',
    en: 'test delivery failed: {reason} {detail} (HTTP {status}) — check the address is reachable from the internet (a reverse proxy or tunnel to HTTP_PORT)',
  },
  untested: { th: 'ทดสอบส่งไม่ได้ ({problem})', en: 'could not run a test delivery ({problem})' },
} satisfies Record<string, Localized>;

/** One line for the log and for /status, in the bot's language. */
export function describeWebhookCheck(check: WebhookCheck, language: Language): string {
  if (check.kind === 'unknown') return say(strings.unknown, language, { problem: check.problem });
  const expected = check.expected ?? `https://<PUBLIC_BASE_URL>${lineWebhookPath}`;
  if (check.endpoint === '') return say(strings.none, language, { expected });
  const parts = [say(strings.onFile, language, { endpoint: check.endpoint }), say(check.active ? strings.active : strings.inactive, language)];
  if (check.expected !== undefined)
    parts.push(sameUrl(check.endpoint, check.expected) ? say(strings.matches, language) : say(strings.differs, language, { expected }));
  const delivery = check.delivery;
  if (delivery.ok) parts.push(say(strings.delivered, language, { status: delivery.statusCode }));
  else if ('reason' in delivery) parts.push(say(strings.refused, language, { reason: delivery.reason, detail: delivery.detail, status: delivery.statusCode }));
  else parts.push(say(strings.untested, language, { problem: delivery.problem }));
  return parts.join('; ');
}

/** Whether the line is a warning: LINE cannot or will not deliver, or the check itself failed. */
export function webhookNeedsAttention(check: WebhookCheck): boolean {
  if (check.kind === 'unknown' || !check.active || !check.delivery.ok) return true;
  return check.expected !== undefined && !sameUrl(check.endpoint, check.expected);
}
