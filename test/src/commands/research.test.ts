import { describe, expect, it } from 'vitest';
import type { CommandContext, ParsedCommand } from '../../../src/commands/command.js';
import { renderSourceList } from '../../../agent/guards/sources.js';
import { createResearchCommand, maxResearchQuestionLength } from '../../../src/commands/research.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Citation, Language } from '../../../src/shared/types.js';

function context(language: Language): CommandContext {
  return {
    message: {
      platform: 'console',
      conversationKey: 'console:test',
      spaceKey: 'console:test',
      messageId: '1',
      chatKind: 'direct',
      sender: { id: 'u1', name: 'User', isPlatformAdmin: false },
      text: '/research',
      mentionsBot: false,
      repliesToBot: false,
      attachments: [],
      receivedAt: new Date('2026-03-05T03:00:00Z'),
    },
    language,
    isGlobalAdmin: false,
    log: silentLogger(),
    now: () => new Date('2026-03-05T03:00:00Z'),
    progress: () => undefined,
    download: async () => {
      throw new Error('no attachments here');
    },
  };
}

function command(rest: string): ParsedCommand {
  return { name: 'research', rest, words: rest.split(/\s+/).filter(Boolean) };
}

const noCredentials = (): string[] => [];

describe('/research', () => {
  it.each([
    ['th', 'วิธีใช้: /research <คำถาม>'],
    ['en', 'Usage: /research <question>'],
  ] as const)('shows usage when the question is empty (%s) without researching', async (language, usage) => {
    const asked: string[] = [];
    const handler = createResearchCommand(
      async (question) => {
        asked.push(question);
        return { text: '', citations: [] };
      },
      renderSourceList,
      noCredentials,
    );
    expect(handler.name).toBe('research');
    expect((await handler.run(command('   '), context(language))).text).toContain(usage);
    expect(asked).toEqual([]);
  });

  it('refuses an over-long question', async () => {
    const handler = createResearchCommand(() => Promise.reject(new Error('must not run')), renderSourceList, noCredentials);
    const reply = await handler.run(command('ก'.repeat(maxResearchQuestionLength + 1)), context('th'));
    expect(reply.text).toBe(`คำถามยาวเกินไป (ไม่เกิน ${maxResearchQuestionLength} ตัวอักษร)`);
  });

  it('passes the question through and lists the numbered sources under the answer', async () => {
    const citations: Citation[] = [
      { label: 'การไฟฟ้าส่วนภูมิภาค', url: 'https://www.pea.co.th/rates' },
      { label: 'การไฟฟ้านครหลวง', url: 'https://www.mea.or.th/rates' },
    ];
    const asked: string[] = [];
    const handler = createResearchCommand(
      async (question) => {
        asked.push(question);
        return { text: 'ค่าไฟ กฟภ. [1] และ กฟน. [2]', citations };
      },
      renderSourceList,
      noCredentials,
    );
    const reply = await handler.run(command('เปรียบเทียบค่าไฟ กฟน. กับ กฟภ.'), context('th'));
    expect(asked).toEqual(['เปรียบเทียบค่าไฟ กฟน. กับ กฟภ.']);
    expect(reply.text).toBe(
      'ค่าไฟ กฟภ. [1] และ กฟน. [2]\n\n**แหล่งที่มา**\n1. [การไฟฟ้าส่วนภูมิภาค](https://www.pea.co.th/rates)\n2. [การไฟฟ้านครหลวง](https://www.mea.or.th/rates)',
    );
  });

  it('answers without a source list when there are no citations, and with a plain error when research throws', async () => {
    const quiet = createResearchCommand(async () => ({ text: 'ไม่พบข้อมูล', citations: [] }), renderSourceList, noCredentials);
    expect((await quiet.run(command('x'), context('th'))).text).toBe('ไม่พบข้อมูล');
    const broken = createResearchCommand(() => Promise.reject(new Error('boom')), renderSourceList, noCredentials);
    expect((await broken.run(command('x'), context('en'))).text).toBe('The research failed because of an internal error. Please try again later.');
  });
});
