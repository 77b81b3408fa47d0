import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createWhoamiCommand } from '../../../src/commands/whoami.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Language } from '../../../src/shared/types.js';

// /whoami on the console (the platforms' own are in test/e2e/<platform>/whoami.test.ts): the owner's id as ADMIN_IDS
// names it, and no group-admin line where the platform has none.

function context(language: Language, isGlobalAdmin: boolean): CommandContext {
  return {
    message: {
      platform: 'console',
      conversationKey: 'console:somchai',
      spaceKey: 'console:somchai',
      messageId: '1',
      chatKind: 'direct',
      sender: { id: 'somchai', name: 'สมชาย_*', isPlatformAdmin: false },
      text: '/whoami',
      mentionsBot: false,
      repliesToBot: false,
      attachments: [],
      receivedAt: new Date('2026-03-05T03:00:00Z'),
    },
    language,
    isGlobalAdmin,
    log: silentLogger(),
    now: () => new Date('2026-03-05T03:00:00Z'),
    progress: () => undefined,
    download: () => Promise.reject(new Error('no attachments here')),
  };
}

const whoami = createWhoamiCommand();
const run = async (language: Language, admin: boolean) => (await whoami.run({ name: 'whoami', rest: '', words: [] }, context(language, admin))).text;

describe('/whoami', () => {
  it('answers the console owner in Thai: the id, the platform, the chat, an admin', async () => {
    expect(await run('th', true)).toBe(
      [
        'ข้อมูลของคุณ สมชาย\\_\\*',
        '- รหัสของคุณ (ใส่ใน ADMIN_IDS ได้ตามนี้): `console:somchai`',
        '- แพลตฟอร์ม: คอนโซล (เทอร์มินัล)',
        '- ห้องสนทนานี้: `console:somchai`',
        '- ผู้ดูแลระบบของบอท (ADMIN_IDS): ใช่',
      ].join('\n'),
    );
  });

  it('in English, for someone who is not an admin, says how to become one', async () => {
    const text = await run('en', false);
    expect(text).toContain('- Platform: console (terminal)');
    expect(text).toContain('- Bot admin (ADMIN_IDS): no');
    expect(text).toContain('To become a bot admin: add console:somchai to ADMIN_IDS in the .env file');
    expect(text).not.toContain('Admin of this group');
  });
});
