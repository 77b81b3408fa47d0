// Ink as a 0/1 mask, from an 8-bit grey raw buffer, by Otsu's threshold (the grey level that best splits the
// histogram in two). Ink is the darker class on a light page, the lighter one on a dark page (a dark-mode
// screenshot). Linear in pixels; the mask feeds the skew and line-height estimates.

export interface GreyImage {
  width: number;
  height: number;
  /** One byte per pixel, row after row. */
  pixels: Uint8Array;
}

export interface InkMask {
  width: number;
  height: number;
  /** 1 where there is ink. */
  ink: Uint8Array;
}

export function otsuThreshold(pixels: Uint8Array): number {
  const histogram = new Float64Array(256);
  for (const value of pixels) histogram[value] = (histogram[value] ?? 0) + 1;
  let totalSum = 0;
  for (let level = 0; level < 256; level += 1) totalSum += level * (histogram[level] ?? 0);
  let darkCount = 0;
  let darkSum = 0;
  let bestThreshold = 127;
  let bestBetween = -1;
  for (let level = 0; level < 256; level += 1) {
    darkCount += histogram[level] ?? 0;
    darkSum += level * (histogram[level] ?? 0);
    const lightCount = pixels.length - darkCount;
    if (darkCount === 0 || lightCount === 0) continue;
    const darkMean = darkSum / darkCount;
    const lightMean = (totalSum - darkSum) / lightCount;
    const between = darkCount * lightCount * (darkMean - lightMean) ** 2;
    if (between > bestBetween) {
      bestBetween = between;
      bestThreshold = level;
    }
  }
  return bestThreshold;
}

/** More than half the page at or below Otsu's threshold: light text on a dark background. */
export function isDarkPage(pixels: Uint8Array): boolean {
  const threshold = otsuThreshold(pixels);
  let dark = 0;
  for (const value of pixels) if (value <= threshold) dark += 1;
  return dark * 2 > pixels.length;
}

/** The minority class is ink; a page with hardly any contrast (a blank sheet, one colour) has none. */
export function inkMask(image: GreyImage): InkMask {
  const threshold = otsuThreshold(image.pixels);
  const ink = new Uint8Array(image.pixels.length);
  let lightest = 0;
  let darkest = 255;
  let dark = 0;
  for (const value of image.pixels) {
    if (value > lightest) lightest = value;
    if (value < darkest) darkest = value;
    if (value <= threshold) dark += 1;
  }
  if (lightest - darkest < 32) return { width: image.width, height: image.height, ink };
  const inkIsDark = dark * 2 <= image.pixels.length;
  for (let index = 0; index < ink.length; index += 1) ink[index] = (image.pixels[index] ?? 255) <= threshold === inkIsDark ? 1 : 0;
  return { width: image.width, height: image.height, ink };
}
