import type { GreyImage } from './ink-mask.js';

// Grey closing and opening over a square window: the closing (the brightest value within the window, then the
// darkest of those) erases dark marks thinner than the window and keeps large regions with their edges where
// they are; the opening does the same for light marks. Linear in pixels whatever the window (van Herk /
// Gil-Werman: a forward and a backward running max within blocks of the window's length).

export interface Morphology {
  /** Dark text erased: a light page's paper. */
  closing: Uint8Array;
  /** Light text erased: a dark page's background. */
  opening: Uint8Array;
}

/** `window` is the square's side, odd. */
export function morphology(image: GreyImage, window: number): Morphology {
  const filter = (pixels: Uint8Array, brightest: boolean) => extremeFilter(pixels, image, window, brightest);
  return { closing: filter(filter(image.pixels, true), false), opening: filter(filter(image.pixels, false), true) };
}

function extremeFilter(pixels: Uint8Array, size: { width: number; height: number }, window: number, brightest: boolean): Uint8Array {
  if (brightest) return maxFilter(pixels, size, window);
  // The darkest value is the brightest of the negative.
  const result = maxFilter(negative(pixels), size, window);
  return negative(result, result);
}

function negative(pixels: Uint8Array, into: Uint8Array = new Uint8Array(pixels.length)): Uint8Array {
  for (let index = 0; index < pixels.length; index += 1) into[index] = 255 - (pixels[index] ?? 0);
  return into;
}

/** The brightest value of the window × window square around each pixel, cut at the borders: rows, then columns. */
function maxFilter(pixels: Uint8Array, { width, height }: { width: number; height: number }, window: number): Uint8Array {
  const rows = new Uint8Array(pixels.length);
  const scratch = new Scratch(Math.max(width, height));
  for (let row = 0; row < height; row += 1) {
    scratch.line.set(pixels.subarray(row * width, (row + 1) * width));
    slidingMax(scratch, width, window);
    rows.set(scratch.out.subarray(0, width), row * width);
  }
  const result = new Uint8Array(pixels.length);
  for (let column = 0; column < width; column += 1) {
    for (let row = 0, index = column; row < height; row += 1, index += width) scratch.line[row] = rows[index] ?? 0;
    slidingMax(scratch, height, window);
    for (let row = 0, index = column; row < height; row += 1, index += width) result[index] = scratch.out[row] ?? 0;
  }
  return result;
}

class Scratch {
  readonly line: Uint8Array;
  readonly out: Uint8Array;
  readonly forward: Uint8Array;
  readonly backward: Uint8Array;
  constructor(length: number) {
    this.line = new Uint8Array(length);
    this.out = new Uint8Array(length);
    this.forward = new Uint8Array(length);
    this.backward = new Uint8Array(length);
  }
}

/**
 * The max over a centred window along the first `count` values of `scratch.line`, the window cut at the ends: a
 * forward and a backward running max within blocks of the window's length; a window spans at most two blocks,
 * so its max is the backward value at its start or the forward value at its end.
 */
function slidingMax({ line, out, forward, backward }: Scratch, count: number, window: number): void {
  for (let blockStart = 0; blockStart < count; blockStart += window) {
    const blockEnd = Math.min(count, blockStart + window) - 1;
    let running = 0;
    for (let index = blockStart; index <= blockEnd; index += 1) {
      const value = line[index] ?? 0;
      if (value > running) running = value;
      forward[index] = running;
    }
    running = 0;
    for (let index = blockEnd; index >= blockStart; index -= 1) {
      const value = line[index] ?? 0;
      if (value > running) running = value;
      backward[index] = running;
    }
  }
  const radius = (window - 1) / 2;
  for (let index = 0; index < count; index += 1) {
    const from = index > radius ? index - radius : 0;
    const to = index + radius < count ? index + radius : count - 1;
    const start = backward[from] ?? 0;
    const end = forward[to] ?? 0;
    const oneBlock = to - from === window - 1 ? from % window === 0 : from === 0 || ((from / window) | 0) === ((to / window) | 0);
    // Within one block the window either begins it (the forward max is exact) or, cut by the line's end, ends it.
    if (oneBlock) out[index] = from % window === 0 ? end : start;
    else out[index] = start > end ? start : end;
  }
}
