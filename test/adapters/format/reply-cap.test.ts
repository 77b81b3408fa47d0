import { describe, expect, it } from 'vitest';
import { capConsoleText, maxMessagesPerReply } from '../../../adapters/format/index.js';
import { capReply, renderForPlatform } from './by-platform.js';

// One reply becomes at most five messages on every platform: the 920,000-character answer would have been
// about 225 Telegram messages. Past the cap the last message says so, and the rest is a text file where the
// platform can send one.

const sentence = (index: number) => `ประโยคที่ ${index} ของคำตอบที่ยาวมาก **ตัวหนา** และ \`code\` กับ <แท็ก> & เครื่องหมาย`;
const huge = Array.from({ length: 12_000 }, (_, index) => sentence(index)).join('\n');

describe('capReply', () => {
  it.each(['telegram', 'discord', 'line'] as const)('%s: a 920,000-character answer is five messages (the rest as a file or cut)', (platform) => {
    expect(huge.length).toBeGreaterThan(900_000);
    const before = renderForPlatform(huge, platform).length;
    expect(before).toBeGreaterThan(100);
    const asFile = platform !== 'line';
    const capped = capReply(huge, platform, { language: 'th' });
    expect(capped.parts).toHaveLength(maxMessagesPerReply);
    const note = capped.parts.at(-1) ?? '';
    if (asFile) {
      expect(note).toContain('ส่วนที่เหลืออยู่ในไฟล์ answer-rest.txt ที่แนบมา');
      // The rest is plain text, from where the fourth message ended, to the very end.
      expect(capped.rest?.name).toBe('answer-rest.txt');
      expect(capped.rest?.text).toContain('ประโยคที่ 11999 ของคำตอบที่ยาวมาก ตัวหนา');
      expect(capped.rest?.text).not.toContain('<b>');
      expect(capped.rest?.text).not.toContain(sentence(0).slice(0, 20));
    } else {
      expect(note).toContain('ส่วนที่เหลือถูกตัดออก');
      expect(capped.rest).toBeUndefined();
    }
  });

  it('says it in English with BOT_LANGUAGE=en, and leaves a reply that fits untouched', () => {
    expect(capReply(huge, 'discord', { language: 'en' }).parts.at(-1)).toBe(
      '(The answer is longer than 5 messages; the rest is in the attached file answer-rest.txt.)',
    );
    const short = 'สวัสดีครับ **ยินดีต้อนรับ**';
    expect(capReply(short, 'telegram', { language: 'th' })).toEqual({ parts: renderForPlatform(short, 'telegram') });
  });

  it('the console cuts a long reply by characters, with the note', () => {
    const cut = capConsoleText(huge, 'th');
    expect(cut.length).toBeLessThan(maxMessagesPerReply * 4_096 + 200);
    expect(cut).toContain('ส่วนที่เหลือถูกตัดออก');
    expect(capConsoleText('สั้น', 'th')).toBe('สั้น');
  });
});
