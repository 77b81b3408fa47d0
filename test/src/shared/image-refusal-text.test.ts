import { describe, expect, it } from 'vitest';
import type { ImageRefusal } from '../../../src/shared/image-reading.js';
import { describeImageRefusal } from '../../../src/shared/image-reading-text.js';

const thai = /[\u0e00-\u0e7f]/u;

const everyCode: Record<ImageRefusal['code'], ImageRefusal> = {
  'not-an-image': { code: 'not-an-image' },
  'unsupported-format': { code: 'unsupported-format', format: 'HEIC' },
  'too-large': { code: 'too-large', bytes: 25 * 1024 * 1024, limitBytes: 20 * 1024 * 1024 },
  'too-many-pixels': { code: 'too-many-pixels', pixels: 2_500_000_000, limitPixels: 40_000_000 },
  'bad-shape': { code: 'bad-shape', width: 49_000_000, height: 1, maxEdge: 25_000, maxAspect: 100 },
  'too-much-data': { code: 'too-much-data', bytes: 392 * 1024 * 1024, limitBytes: 200 * 1024 * 1024 },
  'metadata-too-large': { code: 'metadata-too-large', limitBytes: 4 * 1024 * 1024 },
  'too-slow': { code: 'too-slow', seconds: 30 },
  corrupt: { code: 'corrupt' },
};

describe('describeImageRefusal', () => {
  it.each(Object.values(everyCode))('says $code in Thai and in English', (refusal) => {
    const inThai = describeImageRefusal(refusal, 'th');
    const inEnglish = describeImageRefusal(refusal, 'en');
    expect(inThai).toMatch(thai);
    expect(inEnglish).not.toMatch(thai);
    expect(inEnglish).toMatch(/^[\x20-\x7e]{10,300}$/u);
    expect(`${inThai} ${inEnglish}`).not.toContain('{');
  });

  it('tells a HEIC sender what to send instead', () => {
    const refusal = everyCode['unsupported-format'];
    expect(describeImageRefusal(refusal, 'th')).toContain('HEIC');
    expect(describeImageRefusal(refusal, 'th')).toContain('JPEG');
    expect(describeImageRefusal(refusal, 'en')).toMatch(/HEIC.{0,80}JPEG or PNG.{0,40}screenshot/u);
  });

  it('gives the pixel and byte limits in plain units', () => {
    expect(describeImageRefusal(everyCode['too-many-pixels'], 'en')).toContain('2500 megapixels, the limit is 40');
    expect(describeImageRefusal(everyCode['too-many-pixels'], 'th')).toContain('40 ล้านพิกเซล');
    expect(describeImageRefusal(everyCode['too-large'], 'en')).toContain('25 MB, the limit is 20 MB');
    expect(describeImageRefusal(everyCode['bad-shape'], 'th')).toContain('49,000,000 × 1 พิกเซล');
    expect(describeImageRefusal(everyCode['too-much-data'], 'en')).toContain('392 MB, the limit is 200 MB');
  });
});
