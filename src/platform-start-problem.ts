import { say, type Localized } from './shared/i18n.js';
import type { Language } from './shared/types.js';

// Why a platform did not start, as a short reason from a fixed vocabulary: /readyz and /status show it, so it is
// built from error codes and HTTP statuses only, never from an SDK's message (Telegram's carry the token in the URL).

export type StartProblemKind = 'refused' | 'dns' | 'timeout' | 'reset' | 'unreachable' | 'tls' | 'http' | 'other';

export interface StartProblem {
  kind: StartProblemKind;
  /** ECONNREFUSED, an HTTP status, an error class name: letters, digits and `_` only. */
  detail?: string;
}

const kindByCode: Record<string, StartProblemKind> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENETDOWN: 'unreachable',
  CERT_HAS_EXPIRED: 'tls',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls',
};

const problemTexts: Record<StartProblemKind, Localized> = {
  refused: { th: 'ปลายทางไม่รับการเชื่อมต่อ', en: 'connection refused' },
  dns: { th: 'หาชื่อเซิร์ฟเวอร์ไม่เจอ (DNS)', en: 'DNS lookup failed' },
  timeout: { th: 'หมดเวลารอ', en: 'timed out' },
  reset: { th: 'การเชื่อมต่อถูกตัด', en: 'connection reset' },
  unreachable: { th: 'ไปไม่ถึงเครือข่าย', en: 'network unreachable' },
  tls: { th: 'ใบรับรอง TLS ใช้ไม่ได้', en: 'TLS certificate problem' },
  http: { th: 'เซิร์ฟเวอร์ตอบ HTTP {detail}', en: 'the server answered HTTP {detail}' },
  other: { th: 'ข้อผิดพลาด {detail}', en: 'error {detail}' },
};

const safeWord = /^[A-Za-z0-9_]{1,40}$/;

function field(error: object, name: string): unknown {
  return name in error ? (error as Record<string, unknown>)[name] : undefined;
}

/** An HTTP status on the error itself (LINE's HTTPFetchError, discord.js' errors, telegraf's TelegramError code). */
function httpStatus(error: object): number | undefined {
  for (const candidate of [field(error, 'status'), field(error, 'statusCode'), field(error, 'code')]) {
    if (typeof candidate === 'number' && Number.isInteger(candidate) && candidate >= 400 && candidate <= 599) return candidate;
  }
  return undefined;
}

/** The reason, looked for along the `cause` chain (fetch wraps the socket error), at most a few links deep. */
export function startProblemOf(error: unknown): StartProblem {
  let current: unknown = error;
  let name: string | undefined;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const code = field(current, 'code') ?? field(current, 'errno');
    if (typeof code === 'string' && code in kindByCode) return { kind: kindByCode[code] ?? 'other', detail: code };
    const status = httpStatus(current);
    if (status !== undefined) return { kind: 'http', detail: String(status) };
    if (name === undefined && current instanceof Error && safeWord.test(current.name)) name = current.name;
    current = field(current, 'cause');
  }
  return name === undefined ? { kind: 'other' } : { kind: 'other', detail: name };
}

export function describeStartProblem(problem: StartProblem, language: Language): string {
  return say(problemTexts[problem.kind], language, { detail: problem.detail ?? '' }).trim();
}
