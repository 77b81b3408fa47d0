import type { InkMask } from './ink-mask.js';

// How far the text lines of a page are turned, from its ink: project the ink along each candidate direction and
// keep the direction whose row profile is the most peaked (sum of squares — lines in phase give tall bars and
// empty gaps; turned lines smear into a flat profile). Coarse steps over ±maxDegrees, then fine steps around the
// best. Cost: ink points × candidate angles, with the points capped by sampling.

export interface SkewEstimate {
  /** Degrees, clockwise as sharp's rotate(): rotate by -angle to straighten. 0 when there is too little ink. */
  angle: number;
  /** Ink per row of the page straightened by `angle` (row 0 is the top of the projection). */
  rowInk: Float64Array;
}

export interface SkewSearch {
  maxDegrees: number;
  coarseStep: number;
  fineStep: number;
}

const defaultSearch: SkewSearch = { maxDegrees: 10, coarseStep: 0.5, fineStep: 0.05 };
/** Enough ink points for a stable profile; more only cost time. */
const maxInkPoints = 150_000;
const minInkPoints = 50;

export function estimateSkewAngle(mask: InkMask, search: SkewSearch = defaultSearch): SkewEstimate {
  const points = inkPoints(mask);
  if (points.count < minInkPoints) return { angle: 0, rowInk: projectRows(points, mask, 0) };
  const score = (angle: number) => peakedness(projectRows(points, mask, angle));
  const coarse = bestOf(score, -search.maxDegrees, search.maxDegrees, search.coarseStep);
  const fine = bestOf(score, coarse - search.coarseStep, coarse + search.coarseStep, search.fineStep);
  // Round away the float noise of the stepping (0.1 + 0.05 …).
  const angle = Math.round(fine * 1000) / 1000;
  return { angle, rowInk: projectRows(points, mask, angle) };
}

interface InkPoints {
  xs: Float64Array;
  ys: Float64Array;
  count: number;
}

function inkPoints(mask: InkMask): InkPoints {
  let total = 0;
  for (const value of mask.ink) total += value;
  const stride = Math.max(1, Math.ceil(total / maxInkPoints));
  const count = Math.floor(total / stride);
  const xs = new Float64Array(count);
  const ys = new Float64Array(count);
  let seen = 0;
  let kept = 0;
  for (let index = 0; index < mask.ink.length && kept < count; index += 1) {
    if (mask.ink[index] !== 1) continue;
    if (seen % stride === 0) {
      xs[kept] = index % mask.width;
      ys[kept] = Math.floor(index / mask.width);
      kept += 1;
    }
    seen += 1;
  }
  return { xs, ys, count: kept };
}

/** Row of each point after straightening by `angle`: a line y = c + x·tan(angle) lands on one row. */
function projectRows(points: InkPoints, mask: InkMask, angle: number): Float64Array {
  const slope = Math.tan((angle * Math.PI) / 180);
  const offset = Math.max(0, slope * (mask.width - 1));
  const rows = new Float64Array(Math.ceil(mask.height + Math.abs(slope) * mask.width) + 2);
  for (let index = 0; index < points.count; index += 1) {
    const row = Math.round((points.ys[index] ?? 0) - (points.xs[index] ?? 0) * slope + offset);
    rows[row] = (rows[row] ?? 0) + 1;
  }
  return rows;
}

function peakedness(rows: Float64Array): number {
  let sum = 0;
  for (const value of rows) sum += value * value;
  return sum;
}

function bestOf(score: (angle: number) => number, from: number, to: number, step: number): number {
  let best = 0;
  let bestScore = -1;
  const steps = Math.round((to - from) / step);
  for (let index = 0; index <= steps; index += 1) {
    const angle = from + index * step;
    const value = score(angle);
    // Ties go to the angle nearest 0: a page of one short line must not be turned for nothing.
    if (value > bestScore || (value === bestScore && Math.abs(angle) < Math.abs(best))) {
      best = angle;
      bestScore = value;
    }
  }
  return best;
}
