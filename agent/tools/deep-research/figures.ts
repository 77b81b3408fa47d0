import { thaiDigitsToAscii } from '../../../src/shared/thai-digits.js';

// Figures in a fact ("41,500 บาท", "3.5%", "๒๕๖๘"), normalized so "41,500" and "41500" compare equal.

const figurePattern = /\d[\d,]{0,15}(?:\.\d{1,6})?/g;

export function extractFigures(text: string): string[] {
  const ascii = thaiDigitsToAscii(text.slice(0, 2000));
  const figures: string[] = [];
  for (const match of ascii.matchAll(figurePattern)) {
    // A trailing comma is punctuation ("47,150, and"), not a thousands separator.
    const plain = match[0].replace(/,/g, '');
    if (plain !== '') figures.push(String(Number(plain)));
  }
  return figures;
}

/** Text with its figures removed: what a statement says about *what*, not *how much*. */
export function withoutFigures(text: string): string {
  return thaiDigitsToAscii(text.slice(0, 2000)).replace(figurePattern, ' ');
}
