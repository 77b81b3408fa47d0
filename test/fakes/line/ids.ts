import { createHash, randomBytes, randomUUID } from 'node:crypto';

// Identifiers shaped as LINE's: user/group/room ids are a letter and 32 hex digits (U…, C…, R…), message ids are
// decimal strings of 18 digits, reply tokens 32 hex digits, webhook event ids ULIDs (26 Crockford base-32
// characters, time first), request ids UUIDs. Ids a test names are derived from a seed, so they stay the same run
// to run.

function hex32(seed: string): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, 32);
}

/** `lineUserId('somchai')` → 'U' and 32 hex digits, the same every run. */
export function lineUserId(seed: string): string {
  return `U${hex32(`user:${seed}`)}`;
}

export function lineGroupId(seed: string): string {
  return `C${hex32(`group:${seed}`)}`;
}

export function lineRoomId(seed: string): string {
  return `R${hex32(`room:${seed}`)}`;
}

const userIdShape = /^U[0-9a-f]{32}$/;
const chatIdShape = /^[UCR][0-9a-f]{32}$/;
const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUserId(id: string): boolean {
  return userIdShape.test(id);
}

export function isChatId(id: string): boolean {
  return chatIdShape.test(id);
}

export function isUuid(value: string): boolean {
  return uuidShape.test(value);
}

const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Ids the fake hands out: message ids count up from one base; the rest are random where LINE's are. */
export class IdSource {
  private nextMessage = 510_000_000_000_000_000n;

  messageId(): string {
    this.nextMessage += 1n;
    return String(this.nextMessage);
  }

  replyToken(): string {
    return randomBytes(16).toString('hex');
  }

  quoteToken(): string {
    return randomBytes(48).toString('base64url');
  }

  requestId(): string {
    return randomUUID();
  }

  /** A ULID for `at` (ms): 10 characters of time, 16 of randomness. */
  webhookEventId(at: number): string {
    let time = '';
    let rest = Math.max(0, Math.floor(at));
    for (let index = 0; index < 10; index++) {
      time = (crockford[rest % 32] ?? '0') + time;
      rest = Math.floor(rest / 32);
    }
    const random = [...randomBytes(16)].map((byte) => crockford[byte % 32] ?? '0').join('');
    return time + random;
  }
}
