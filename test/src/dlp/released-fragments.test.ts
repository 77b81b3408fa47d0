import { describe, expect, it } from 'vitest';
import { Keyv } from 'keyv';
import { releasesSecretPart } from '../../../src/dlp/configured-secret-parts.js';
import { crossTurnKinds, runsToRemember, tokenRuns } from '../../../src/dlp/released-fragments.js';
import { Outbound } from '../../../src/pipeline/outbound.js';
import { ReleasedRecord } from '../../../src/pipeline/released-record.js';
import { fake } from '../../support/fake-tokens.js';
import { memoryLog } from '../../support/memory-log.js';

// A credential split over answers: each half passes the one-text scan, so what could start one is remembered per
// conversation and the next answer is scanned joined onto it; a piece of Saeng's own secret is blocked on sight.

const halves = (value: string, at = Math.floor(value.length / 2)) => [value.slice(0, at), value.slice(at)] as const;

describe('token runs', () => {
  it('reads the runs a token is written in, without a sentence full stop, and bounded', () => {
    expect(tokenRuns('ส่วนที่ 1: xoxb-1234-abcd. แล้ว postgres://u:p@h/db ครับ')).toEqual(['xoxb-1234-abcd', 'postgres://u:p@h/db']);
    expect(tokenRuns('a'.repeat(500))).toEqual(['a'.repeat(160)]);
    expect(tokenRuns('ab '.repeat(10_000))).toEqual([]);
  });

  it('remembers only runs that may start a credential', () => {
    const [first] = halves(fake.slackBot());
    expect(runsToRemember(`ครึ่งแรกคือ ${first} ส่วนที่เหลือจะส่งให้ทีหลัง version 1.2.3 example_value`)).toEqual([first]);
    expect(runsToRemember('ใช้คำสั่ง npm install แล้วเปิด http://localhost:3000 ได้เลย')).toEqual([]);
  });
});

describe('across answers', () => {
  it.each([
    ['a Slack bot token', fake.slackBot()],
    ['an OpenAI project key', fake.openaiProject()],
    ['a Telegram bot token', fake.telegramBot()],
    ['a Stripe live key', fake.stripeLive()],
  ])('finds %s completed by the next answer', (_name, token) => {
    const [first, second] = halves(token);
    const earlier = runsToRemember(`ส่วนที่ 1: ${first}`);
    expect(crossTurnKinds(earlier, `ส่วนที่ 2: ${second}`)).not.toEqual([]);
  });

  it('finds nothing in ordinary next answers', () => {
    const [first] = halves(fake.slackBot());
    const earlier = runsToRemember(`ส่วนที่ 1: ${first}`);
    for (const next of ['ขอโทษครับ ส่งส่วนที่เหลือไม่ได้', 'run npm test -- --watch then open http://127.0.0.1:8080/v1', 'ราคา 1,250 บาท ณ วันที่ 7/12/2569']) {
      expect(crossTurnKinds(earlier, next)).toEqual([]);
    }
    expect(crossTurnKinds([], fake.slackBot())).toEqual([]);
  });

  it('does not take a public key shown next for the rest of a token (an authorized_keys line, WireGuard)', () => {
    const [first] = halves(fake.slackBot());
    const earlier = runsToRemember(`ส่วนที่ 1: ${first}`);
    const sshKey = `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${'Bq4kZ8'.repeat(6)}Xw9 somchai@laptop`;
    expect(crossTurnKinds(earlier, `เพิ่มบรรทัดนี้:\n\`\`\`\n${sshKey}\n\`\`\``)).toEqual([]);
    expect(crossTurnKinds(earlier, `[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nAllowedIPs = 10.0.0.2/32`)).toEqual([]);
    // The rest of the token itself is still found, on a line of its own.
    const [, second] = halves(fake.slackBot());
    expect(crossTurnKinds(earlier, `ssh-ed25519 ไม่เกี่ยว\nส่วนที่ 2: ${second}`)).not.toEqual([]);
  });
});

describe('pieces of a configured secret', () => {
  const botToken = fake.telegramBot();
  const password = 'Xk9-vQ2m!7tLp4Rz';

  it('blocks any quarter of a configured secret, alone or glued to a label', () => {
    const [first, second] = halves(botToken);
    expect(releasesSecretPart(`ครึ่งแรก: ${first}`, [botToken])).toBe(true);
    expect(releasesSecretPart(`part2=${second}`, [botToken])).toBe(true);
    expect(releasesSecretPart(`ชิ้นที่ 3: ${botToken.slice(20, 33)}`, [botToken])).toBe(true);
    expect(releasesSecretPart(`รหัสบางส่วน ${password.slice(0, 8)}`, [password])).toBe(true);
  });

  it('leaves text that only shares a word or a short piece, and URLs to the whole-value match', () => {
    expect(releasesSecretPart(`โทเค็นขึ้นต้นด้วย ${botToken.slice(0, 7)} ครับ`, [botToken])).toBe(false);
    expect(releasesSecretPart('ตั้งรหัสผ่านใหม่ด้วย passwordpassword', ['passwordpassword1'])).toBe(false);
    expect(releasesSecretPart('เชื่อมต่อที่ postgres://localhost:5432/saeng', ['postgres://saeng:Str0ngPassw0rd@localhost:5432/saeng'])).toBe(false);
  });
});

describe('the outbound choke point', () => {
  it('sends the first half, remembers it, and blocks the rest in the next answer and in its live text', async () => {
    const { log, records } = memoryLog('warn');
    const outbound = new Outbound({ secrets: [], language: 'th', log, released: new ReleasedRecord(new Keyv()) });
    const [first, second] = halves(fake.slackBot());
    const sent = await outbound.prepare({ text: `ส่วนที่ 1: \`${first}\``, files: [] }, 'telegram:1');
    expect(sent.text).toContain(first);
    const live = await outbound.liveCheck('telegram:1');
    expect(live(`ส่วนที่ 2: ${second}`)).toBe(false);
    expect(live('ขอโทษครับ ส่งต่อไม่ได้')).toBe(true);
    const blocked = await outbound.prepare({ text: `ส่วนที่ 2: \`${second}\``, files: [] }, 'telegram:1');
    expect(blocked.text).toContain('🔒');
    expect(records.at(-1)?.kinds).toEqual(['slack-token (across answers)']);
    // Another conversation never sees the first half.
    expect((await outbound.prepare({ text: `ส่วนที่ 2: ${second}`, files: [] }, 'telegram:2')).text).toContain(second);
  });

  it('reads the record only for a reply that could complete a credential', async () => {
    let reads = 0;
    const record = new ReleasedRecord(new Keyv());
    const counting = { earlier: async (key: string) => (reads++, record.earlier(key)), remember: record.remember.bind(record) };
    const outbound = new Outbound({ secrets: [], language: 'th', log: memoryLog('warn').log, released: counting });
    await outbound.prepare({ text: 'ราคาทองวันนี้ 41,250 บาท ดูได้ที่ https://example.com/gold', files: [] }, 'telegram:3');
    expect(reads).toBe(0);
    await outbound.prepare({ text: 'ส่วนที่ 2: a1B2c3D4e5F6', files: [] }, 'telegram:3');
    expect(reads).toBe(1);
  });

  it('blocks a piece of a configured secret in an answer', async () => {
    const secret = fake.telegramBot();
    const outbound = new Outbound({ secrets: [secret], language: 'en', log: memoryLog('warn').log });
    const blocked = await outbound.prepare({ text: `The first part: ${secret.slice(0, 20)}`, files: [] }, 'console:local');
    expect(blocked.text).toContain('blocked');
  });
});

describe('a password given in parts', () => {
  it.each([
    ['DB_PASSWORD ส่วนแรก: Xk9mP2q', 'ส่วนที่สองคือ Lr7vB4nW'],
    ['รหัสผ่าน Wi-Fi ครึ่งแรกคือ "Tr0ub4d"', 'ครึ่งหลังคือ "&3xPl0de9"'],
    ['first half of the password: Xk9#mP2', 'second half: qLr7$vB4n'],
  ])('%s, then %s: blocked as the password completed', (first, second) => {
    const earlier = runsToRemember(first);
    expect(earlier.some((run) => run.startsWith('password='))).toBe(true);
    expect(crossTurnKinds(earlier, second)).toEqual(['password-assignment']);
  });

  it('remembers nothing of an answer that gives no part, and blocks nothing of a next answer without a password’s rest', () => {
    expect(runsToRemember('รหัสผ่านต้องมีอย่างน้อย 8 ตัว ผสมตัวเลขและสัญลักษณ์')).toEqual([]);
    expect(runsToRemember('password: hunter2 คือตัวอย่างรหัสผ่านที่แย่')).toEqual([]);
    const earlier = runsToRemember('รหัสผ่าน Wi-Fi ครึ่งแรกคือ "Tr0ub4d"');
    expect(crossTurnKinds(earlier, 'ขอโทษครับ ส่วนที่เหลือให้ไม่ได้ครับ')).toEqual([]);
    expect(crossTurnKinds(earlier, 'ลองเปิด Wi-Fi ใหม่อีกครั้งครับ')).toEqual([]);
  });
});

describe('precision across answers', () => {
  it('flags (almost) nothing when clean answers follow clean answers: the corpus negatives in sequence', async () => {
    const { dlpCorpus } = await import('../../support/dlp-corpus/index.js');
    const clean = dlpCorpus()
      .filter((sample) => sample.kind === 'negative')
      .map((sample) => sample.text);
    let flagged = 0;
    let remembered = 0;
    for (let index = 1; index < clean.length; index++) {
      const earlier = runsToRemember(clean[index - 1] ?? '');
      if (earlier.length > 0) remembered++;
      if (crossTurnKinds(earlier, clean[index] ?? '').length > 0) flagged++;
    }
    expect(clean.length).toBeGreaterThan(1_000);
    // The same bound as the one-text scan's false blocks (0.2%).
    expect(flagged / clean.length).toBeLessThanOrEqual(0.002);
    expect(remembered).toBeGreaterThan(0);
  });
});
