import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanOcrText, isNoiseLine } from '../../../src/ocr/ocr-text-cleanup.js';
import { composeSaraAm } from '../../../src/ocr/sara-am.js';

const nikhahit = '\u0E4D';
const saraAa = '\u0E32';
const saraAm = '\u0E33';
const maiTho = '\u0E49';

describe('composeSaraAm', () => {
  it('composes nikhahit + sara aa, with a tone mark between or before', () => {
    expect(composeSaraAm(`ส${nikhahit}${saraAa}นักงาน`)).toBe('สำนักงาน');
    expect(composeSaraAm(`น${nikhahit}${maiTho}${saraAa}`)).toBe(`น${maiTho}${saraAm}`);
    expect(composeSaraAm(`น${maiTho}${nikhahit}${saraAa}`)).toBe(`น${maiTho}${saraAm}`);
    expect(composeSaraAm('น้ำ ทำ')).toBe('น้ำ ทำ');
  });

  it('leaves a lone nikhahit or sara aa alone', () => {
    expect(composeSaraAm(`นา ${nikhahit}`)).toBe(`นา ${nikhahit}`);
  });
});

describe('cleanOcrText', () => {
  it('composes sara am, strips form feeds, trims lines and keeps one blank line', () => {
    const raw = `ส${nikhahit}${saraAa}นักงาน  \n\n\n\nท${nikhahit}${saraAa}การ\n\f`;
    expect(cleanOcrText(raw)).toBe('สำนักงาน\n\nทำการ');
  });

  it('drops lines with no letter and no digit, and lone symbols', () => {
    expect(cleanOcrText('%\nร้านกาแฟ\n°\n—\n·\n\u0E49\nรวม')).toBe('ร้านกาแฟ\nรวม');
  });

  it('keeps figures on lines of their own', () => {
    expect(cleanOcrText('190.00\n1,250\n5\n๓,')).toBe('190.00\n1,250\n5\n๓,');
  });

  it('drops the scatter of a line of tone marks read on its own', () => {
    const raw = 'ประกาศ\n\noe      °    ew  Ca\n\nสำนักงานจะปิดทำการ\nA   eo we           °       a\nเนื่องในวันฉัตรมงคล';
    expect(cleanOcrText(raw)).toBe('ประกาศ\n\nสำนักงานจะปิดทำการ\nเนื่องในวันฉัตรมงคล');
  });

  it('keeps short real lines and any scatter that holds a digit', () => {
    expect(isNoiseLine('OK')).toBe(false);
    expect(isNoiseLine('a')).toBe(false);
    expect(isNoiseLine('ไป นะ')).toBe(false);
    expect(isNoiseLine('at  ย     a  18      ๐     ow 6')).toBe(false);
    expect(isNoiseLine('ชา    2    60')).toBe(false);
    expect(isNoiseLine('ชา    นม')).toBe(false);
    expect(isNoiseLine('a    a')).toBe(true);
    expect(isNoiseLine('ก    ข    ค')).toBe(true);
  });

  it('shrinks a column gap to two spaces', () => {
    expect(cleanOcrText('ขนมปังปิ้ง                            45.00')).toBe('ขนมปังปิ้ง  45.00');
  });

  it('answers empty text for an empty or all-noise page', () => {
    expect(cleanOcrText('')).toBe('');
    expect(cleanOcrText('\f')).toBe('');
    expect(cleanOcrText(' \n%\n\n')).toBe('');
  });

  const pieces = fc.constantFrom(
    'ก',
    'า',
    nikhahit,
    saraAa,
    maiTho,
    '\u0E48',
    '\u0E38',
    'ำ',
    'a',
    'Z',
    '1',
    '0',
    '๓',
    '.',
    ',',
    '%',
    '°',
    ' ',
    '  ',
    '\n',
    '\n\n',
    '\f',
    '\r\n',
    '\t',
    'e\u0301',
  );
  const ocrLike = fc.array(pieces, { maxLength: 80 }).map((parts) => parts.join(''));
  const digits = (text: string): string => (text.match(/\p{Nd}/gu) ?? []).join('');

  it('is idempotent', () => {
    fc.assert(
      fc.property(ocrLike, (raw) => {
        const once = cleanOcrText(raw);
        expect(cleanOcrText(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('never drops a digit', () => {
    fc.assert(
      fc.property(ocrLike, (raw) => {
        expect(digits(cleanOcrText(raw))).toBe(digits(raw));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves no decomposed sara am, no form feed and no blank run', () => {
    fc.assert(
      fc.property(ocrLike, (raw) => {
        const clean = cleanOcrText(raw);
        expect(clean).not.toMatch(/\u0E4D[\u0E48-\u0E4B]?\u0E32/u);
        expect(clean).not.toContain('\f');
        expect(clean).not.toMatch(/\n\s*\n\s*\n/u);
        expect(clean).toBe(clean.normalize('NFC'));
      }),
      { numRuns: 2000 },
    );
  });
});
