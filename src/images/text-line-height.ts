// The typical height of a line of text, from the ink per row of a straightened page: rows with ink form bands,
// one per text line from the top of its tone marks to the bottom of its lower vowels, and the median band is
// the line. Thai marks stand a row or two clear of the consonants: such small gaps are closed first. Linear in
// rows (plus sorting the bands).

/** A row belongs to a line when it holds at least this share of a typical text row's ink. */
const inkShare = 0.04;
/** Bands thinner than this are specks, rules or noise, not text. */
const minBandRows = 3;
/** A gap under this share of the typical band is inside a line (marks above or below it), not between lines. */
const innerGapShare = 0.3;
/**
 * A "line" taller than this share of the page, or several lines that leave almost no gap, is not text: it
 * is noise that puts ink in every row, or a table or a frame mistaken for ink. Unknown, then, not a size to scale by.
 */
const maxLineShareOfPage = 0.25;
const maxInkedRowShare = 0.8;

interface Band {
  start: number;
  end: number;
}

export function estimateTextLineHeight(rowInk: ArrayLike<number>): number | null {
  const typical = typicalInkRow(rowInk);
  if (typical === 0) return null;
  const bands = inkBands(rowInk, Math.max(1, typical * inkShare));
  if (bands.length === 0) return null;
  const bodyHeight = median(bands.map((band) => band.end - band.start)) ?? 0;
  const maxInnerGap = Math.max(1, Math.round(bodyHeight * innerGapShare));
  const lines: Band[] = [];
  for (const band of bands) {
    const previous = lines[lines.length - 1];
    if (previous && band.start - previous.end <= maxInnerGap) previous.end = band.end;
    else lines.push({ ...band });
  }
  const heights = lines.map((line) => line.end - line.start).filter((height) => height >= minBandRows);
  const height = median(heights);
  if (height === null || height > rowInk.length * maxLineShareOfPage) return null;
  const inkedRows = heights.reduce((sum, rows) => sum + rows, 0);
  return heights.length > 1 && inkedRows > inkedSpan(rowInk) * maxInkedRowShare ? null : height;
}

/** Rows from the first with ink to the last. */
function inkedSpan(rowInk: ArrayLike<number>): number {
  let first = -1;
  let last = -1;
  for (let row = 0; row < rowInk.length; row += 1) {
    if ((rowInk[row] ?? 0) <= 0) continue;
    if (first < 0) first = row;
    last = row;
  }
  return first < 0 ? 0 : last - first + 1;
}

function inkBands(rowInk: ArrayLike<number>, threshold: number): Band[] {
  const bands: Band[] = [];
  let start = -1;
  for (let row = 0; row <= rowInk.length; row += 1) {
    const inked = row < rowInk.length && (rowInk[row] ?? 0) >= threshold;
    if (inked && start < 0) start = row;
    if (!inked && start >= 0) {
      bands.push({ start, end: row });
      start = -1;
    }
  }
  return bands;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? null;
}

/** The 90th percentile of the inked rows: the ink of a row through the body of a line of text. */
function typicalInkRow(rowInk: ArrayLike<number>): number {
  const inked: number[] = [];
  for (let row = 0; row < rowInk.length; row += 1) if ((rowInk[row] ?? 0) > 0) inked.push(rowInk[row] ?? 0);
  if (inked.length === 0) return 0;
  inked.sort((left, right) => left - right);
  return inked[Math.floor(inked.length * 0.9)] ?? 0;
}
