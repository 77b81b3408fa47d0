import { describe, expect, it } from 'vitest';
import { extractVersions, sameVersionLine } from '../../../../agent/tools/web-search/versions.js';
import { dateLine, extractYears, yearIn } from '../../../../agent/tools/web-search/years.js';

describe('extractYears (all CE)', () => {
  it.each([
    ['Python 3.13 released in 2024', [2024]],
    ['ราคาทองวันนี้ 5 มี.ค. 2569', [2026]],
    ['ปีภาษี พ.ศ. 2568', [2025]],
    ['พ.ศ.2568', [2025]],
    ['ยื่นภาษีปี ๒๕๖๖', [2023]],
    ['หมดเขต พ.ศ. 67', [2024]],
    ['ปี 68', [2025]],
    ['อัปเดต 5 มี.ค. 69', [2026]],
    ['12/05/2567', [2024]],
    ['2024-05-01T12:54:03', [2024]],
    ['ค.ศ. 2025', [2025]],
    ['from 2020 to 2026', [2020, 2026]],
    ['ฤดูกาล 2019-2020', [2019, 2020]],
    ['The Python Tutorial — Python 3.12.3 documentation', []],
    ['ราคา 2,500 บาท', []],
    ['ราคา 2550 บาท', []],
    ['ขายออก 47,150 บาท', []],
    ['โทร 1900-123-456', []],
    ['รหัส 12345 และ 20245', []],
    ['อายุ 68 ปี', []],
    ['version 2.7.18', []],
  ])('%s → %j', (text, years) => {
    expect(extractYears(text)).toEqual(years);
  });

  it('reads the year and the date line in the bot time zone (BE = CE + 543)', () => {
    const newYearInBangkok = new Date('2025-12-31T18:30:00Z');
    expect(yearIn(newYearInBangkok, 'Asia/Bangkok')).toBe(2026);
    expect(yearIn(newYearInBangkok, 'UTC')).toBe(2025);
    expect(dateLine(newYearInBangkok, 'Asia/Bangkok')).toBe('2026-01-01 (CE 2026, BE 2569)');
  });
});

describe('extractVersions', () => {
  it.each([
    ['Python 3.12', [{ product: 'python', version: '3.12' }]],
    ['python3.9 docs', [{ product: 'python', version: '3.9' }]],
    ['ไพธอน 3.13', [{ product: 'ไพธอน', version: '3.13' }]],
    ['Node.js version 20', [{ product: '', version: '20' }]],
    ['เวอร์ชัน 3.12.1', [{ product: '', version: '3.12.1' }]],
    ['Python 3', []],
    ['ราคา 47,150 บาท', []],
  ])('%s → %j', (text, versions) => {
    expect(extractVersions(text)).toEqual(versions);
  });

  it.each([
    ['3.12', '3.12.3', true],
    ['3.12.1', '3.12', true],
    ['3.12', '3.1', false],
    ['3.12', '3.120', false],
    ['3.9', '3.13', false],
  ])('%s and %s same line: %s', (left, right, same) => {
    expect(sameVersionLine(left, right)).toBe(same);
  });
});
