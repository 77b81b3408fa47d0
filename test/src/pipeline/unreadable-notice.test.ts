import { describe, expect, it } from 'vitest';
import { supportedTypesText } from '../../../src/knowledge/ingest/ingest-failure.js';
import { unreadableNoticeText } from '../../../src/pipeline/unreadable-notice.js';
import type { UnreadableKind } from '../../../src/shared/types.js';

// The line says what could not be read and what can, in the bot's language; the document types it names are ones
// knowledge-base ingest really reads.

const kinds: UnreadableKind[] = ['voice', 'audio', 'video', 'sticker'];

describe('the unreadable notice', () => {
  it('says what could not be read, in Thai by default and in English', () => {
    expect(unreadableNoticeText('voice', 'th')).toMatch(/^ขออภัย แสงยังฟังข้อความเสียงไม่ได้ครับ /);
    expect(unreadableNoticeText('sticker', 'th')).toContain('ดูสติกเกอร์');
    expect(unreadableNoticeText('video', 'en')).toMatch(/^Sorry, I cannot watch videos yet\. /);
    for (const kind of kinds) for (const language of ['th', 'en'] as const) expect(unreadableNoticeText(kind, language)).not.toMatch(/[{}\n]/);
  });

  it('names only document types that knowledge-base ingest reads', () => {
    const named = /\(([A-Z, ]+)\)/.exec(unreadableNoticeText('audio', 'en'))?.[1]?.split(', ') ?? [];
    expect(named.length).toBeGreaterThan(0);
    for (const type of named) expect(supportedTypesText).toContain(`.${type.toLowerCase()}`);
    expect(/\(([A-Z, ]+)\)/.exec(unreadableNoticeText('audio', 'th'))?.[1]?.split(', ')).toEqual(named);
  });
});
