import type { GreyImage } from './ink-mask.js';

// Whether a page is grainy: sensor noise, a dim photo pushed bright. On paper and on text neighbouring pixels are
// nearly equal, so the median difference between horizontal neighbours is 0 on a clean render, a scan, a heavy
// JPEG or a phone photo at analysis size; noise of standard deviation 40 makes it about 20. Linear in pixels.

const noisyMedianDifference = 8;

export function isNoisy(image: GreyImage): boolean {
  const histogram = new Float64Array(256);
  let count = 0;
  for (let row = 0; row < image.height; row += 1) {
    const start = row * image.width;
    for (let column = start; column + 1 < start + image.width; column += 1) {
      const difference = Math.abs((image.pixels[column] ?? 0) - (image.pixels[column + 1] ?? 0));
      histogram[difference] = (histogram[difference] ?? 0) + 1;
      count += 1;
    }
  }
  let below = 0;
  for (let difference = 0; difference < noisyMedianDifference; difference += 1) below += histogram[difference] ?? 0;
  return count > 0 && below * 2 < count;
}
