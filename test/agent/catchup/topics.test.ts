import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingText, keepValidRefs, parseTopics, withoutRefs } from '../../../agent/catchup/topics.js';

const upTo = (last: number) => (entry: number) => entry >= 0 && entry <= last;

describe('parseTopics', () => {
  it('reads headings with their first message, lines under them, and the preamble', () => {
    const answer = ['สรุปช่วงนี้', '## ทริปเชียงใหม่ (#12)', '- ฝน: เสนอไปวันที่ 28', '- ตกลง: จองรถตู้', '', '## งานเลี้ยง (#40, #41)', '- ค้าง: ใครเป็นพิธีกร'].join('\n');
    expect(parseTopics(answer, upTo(100))).toEqual({
      preamble: ['สรุปช่วงนี้'],
      topics: [
        { title: 'ทริปเชียงใหม่', lines: ['- ฝน: เสนอไปวันที่ 28', '- ตกลง: จองรถตู้'], first: 12 },
        { title: 'งานเลี้ยง', lines: ['- ค้าง: ใครเป็นพิธีกร'], first: 40 },
      ],
      droppedRefs: 0,
    });
  });

  it('reads bold and numbered headings, and takes the smallest reference under a heading that has none', () => {
    const answer = ['1. **แอร์เสีย**', '- นุ่น แจ้งช่าง (#30) แล้วช่างมา (#25)', '**เซิร์ฟเวอร์ล่ม** (#50)', 'กลับมาแล้ว'].join('\n');
    const { topics } = parseTopics(answer, upTo(100));
    expect(topics.map((topic) => [topic.title, topic.first])).toEqual([
      ['แอร์เสีย', 25],
      ['เซิร์ฟเวอร์ล่ม', 50],
    ]);
    expect(topics[0]?.lines).toEqual(['- นุ่น แจ้งช่าง แล้วช่างมา']);
  });

  it('drops references outside the stretch and counts them; what is not a reference stays text', () => {
    const answer = ['## ฟุตบอล (#9999999)', '- จองสนาม #5 และ #11 และ #-3 และ #12345678901'].join('\n');
    const list = parseTopics(answer, upTo(10));
    expect(list.topics[0]).toEqual({ title: 'ฟุตบอล', lines: ['- จองสนาม และ และ #-3 และ #12345678901'], first: 5 });
    expect(list.droppedRefs).toBe(2);
  });

  it('does not take bold words inside a sentence, or a hashtag, for a heading', () => {
    expect(headingText('เรื่อง **สำคัญ** คือการประชุม')).toBeUndefined();
    expect(headingText('#แฮชแท็ก')).toBeUndefined();
    expect(headingText('####### เจ็ดชั้น')).toBeUndefined();
    expect(headingText('### หัวข้อ')).toBe('หัวข้อ');
  });

  it('reads only the visible answer, bounded: thinking dropped, a huge answer read in part and fast', () => {
    expect(parseTopics('<think>## คิดอยู่ (#1)</think>\n## จริง (#2)', upTo(5)).topics.map((topic) => topic.title)).toEqual(['จริง']);
    const huge = `## ก (#1)\n${'- '.repeat(2_000_000)}\n${'## ข (#2)\n'.repeat(100_000)}`;
    const list = parseTopics(huge, upTo(5));
    expect(list.topics.length).toBeLessThan(400);
    expect(list.topics[0]?.lines[0]?.length).toBeLessThanOrEqual(600);
  });

  it('never throws and keeps only references it was allowed, whatever the model writes', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.string({ unit: fc.constantFrom('#', '1', '2', '(', ')', ',', ' ', '\n', '*', 'ก'), maxLength: 200 }),
        (noise, refs) => {
          const list = parseTopics(`${noise}\n## ${refs}\n${refs}`, upTo(3));
          for (const topic of list.topics) if (topic.first !== undefined) expect(topic.first).toBeLessThanOrEqual(3);
        },
      ),
    );
  });
});

describe('references in text', () => {
  it('keepValidRefs keeps the allowed references and drops the rest', () => {
    expect(keepValidRefs('## ก (#3) และ (#77) #4', upTo(10))).toEqual({ text: '## ก (#3) และ () #4', dropped: 1 });
  });

  it('withoutRefs removes reference groups with the space before them', () => {
    expect(withoutRefs('ทริป (#12, #40) ไปกัน #7 นะ')).toBe('ทริป ไปกัน นะ');
  });
});
