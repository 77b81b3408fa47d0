import { afterEach, describe, expect, it } from 'vitest';
import { adminLines, formatDuration } from '../../../src/commands/status-admin.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// What only a global admin's /status adds: uptime and version, the inbound backlog, each platform's state.

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

const admin = {
  uptimeSeconds: 93_784,
  version: '1.4.0',
  queue: { pending: 3, oldestPendingAgeSeconds: 125, byPlatform: { line: { pending: 3, oldestPendingAgeSeconds: 125 } } },
  platforms: { telegram: 'running', line: 'failed' } as const,
};

describe('admin /status lines', () => {
  it('in Thai, with no English tags (product names stay)', () => {
    const text = adminLines(admin, 'th');
    expect(text).toBe(
      ['- ทำงานมาแล้ว: 1 วัน 2 ชั่วโมง (รุ่น 1.4.0)', '- ข้อความที่ยังค้างในคิว: 3 (รอนานสุด 2 นาที 5 วินาที)', '- แพลตฟอร์ม: Telegram ทำงานอยู่, LINE เริ่มไม่สำเร็จ'].join('\n'),
    );
    expect(text).not.toMatch(/\b(?:running|failed|starting|stopped|min|h|d|s)\b/);
  });

  it('in English; an empty queue says no age, no platform says none', () => {
    expect(adminLines({ ...admin, uptimeSeconds: 0, queue: { pending: 0, oldestPendingAgeSeconds: 0, byPlatform: {} }, platforms: {} }, 'en')).toBe(
      ['- Running for: 0 s (version 1.4.0)', '- Messages waiting in the queue: 0', '- Platforms: none'].join('\n'),
    );
    expect(formatDuration(3_600, 'en')).toBe('1 h');
    expect(formatDuration(59.6, 'th')).toBe('1 นาที');
  });

  it('a platform that is down says why and when it is tried again; one whose token was refused says which setting', () => {
    const down = {
      ...admin,
      platforms: { telegram: 'retrying', line: 'failed' } as const,
      platformProblems: {
        telegram: { reason: { th: 'ปลายทางไม่รับการเชื่อมต่อ', en: 'connection refused' }, nextAttemptAt: new Date(Date.now() + 40_000) },
        line: { reason: { th: 'ตั้งค่า LINE_CHANNEL_ACCESS_TOKEN ไม่ถูกต้อง', en: 'LINE_CHANNEL_ACCESS_TOKEN was refused' } },
      },
    };
    expect(adminLines(down, 'th')).toContain(
      '- แพลตฟอร์ม: Telegram ยังเชื่อมต่อไม่ได้ กำลังลองใหม่ (ปลายทางไม่รับการเชื่อมต่อ; ลองใหม่ในอีก 40 วินาที), LINE เริ่มไม่สำเร็จ (ตั้งค่า LINE_CHANNEL_ACCESS_TOKEN ไม่ถูกต้อง)',
    );
    expect(adminLines(down, 'en')).toContain(
      '- Platforms: Telegram down, retrying (connection refused; next try in 40 s), LINE failed to start (LINE_CHANNEL_ACCESS_TOKEN was refused)',
    );
  });

  it('through the app: the console owner (an admin) sees them, another user does not', async () => {
    fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' } });
    const owner = (await test.ask('/status')).replies[0]?.text ?? '';
    expect(owner).toContain('- ทำงานมาแล้ว: ');
    expect(owner).toMatch(/\(รุ่น \d+\.\d+\.\d+/);
    expect(owner).toContain('- ข้อความที่ยังค้างในคิว: 0');
    expect(owner).toContain('- แพลตฟอร์ม: ไม่มี');
    const other = (await test.ask('/status', { userId: 'somchai' })).replies[0]?.text ?? '';
    expect(other).toContain('สถานะของบอท');
    expect(other).not.toContain('ทำงานมาแล้ว');
    expect(other).not.toContain('คิว');
  });
});
