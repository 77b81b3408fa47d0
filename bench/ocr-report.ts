import { readFileSync, readdirSync } from 'node:fs';

// The OCR bench's arithmetic: one measurement per image and variant, folded into the per-condition table,
// the timing percentiles and the goals.

export type Variant = 'raw' | 'prepared';

export interface Measurement {
  document: string;
  language: 'th' | 'en';
  condition: string;
  degraded: boolean;
  variant: Variant;
  cer: number;
  /** Pre-processing plus tesseract (raw: tesseract only). */
  ms: number;
  preprocessMs: number;
  /** Tesseract's CPU time plus this process's CPU time while pre-processing (meaningful one image at a time). */
  cpuMs?: number;
  tesseractMaxRssKb?: number;
  /** Prepared only: the skew the pre-processing turned back and the scale it applied. */
  angle?: number;
  scale?: number;
}

export const round = (value: number, places = 3): number => Math.round(value * 10 ** places) / 10 ** places;

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? 0;
}

const mean = (values: readonly number[]): number => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

function pick(measurements: readonly Measurement[], filter: Partial<Measurement>): Measurement[] {
  return measurements.filter((measurement) => Object.entries(filter).every(([key, value]) => measurement[key as keyof Measurement] === value));
}

export interface CerCell {
  images: number;
  raw: number;
  prepared: number;
  preparedBetter: boolean;
  /** Medians over the prepared images: what the pre-processing did. */
  correctedAngle: number;
  scale: number;
}

/** condition → language → mean CER of each variant. */
export function cerTable(measurements: readonly Measurement[], conditions: readonly string[]): Record<string, Partial<Record<'th' | 'en', CerCell>>> {
  const table: Record<string, Partial<Record<'th' | 'en', CerCell>>> = {};
  for (const condition of conditions) {
    const row: Partial<Record<'th' | 'en', CerCell>> = {};
    for (const language of ['th', 'en'] as const) {
      const raw = pick(measurements, { condition, language, variant: 'raw' }).map((measurement) => measurement.cer);
      const preparedImages = pick(measurements, { condition, language, variant: 'prepared' });
      const prepared = preparedImages.map((measurement) => measurement.cer);
      if (raw.length === 0) continue;
      row[language] = {
        images: raw.length,
        raw: round(mean(raw)),
        prepared: round(mean(prepared)),
        preparedBetter: mean(prepared) < mean(raw),
        correctedAngle: round(
          percentile(
            preparedImages.map((measurement) => measurement.angle ?? 0),
            0.5,
          ),
          2,
        ),
        scale: round(
          percentile(
            preparedImages.map((measurement) => measurement.scale ?? 1),
            0.5,
          ),
          2,
        ),
      };
    }
    table[condition] = row;
  }
  return table;
}

export function timing(measurements: readonly Measurement[], withCpu = false) {
  const summary = (variant: Variant) => {
    const chosen = pick(measurements, { variant });
    const ms = chosen.map((measurement) => measurement.ms);
    const cpu = chosen.flatMap((measurement) => (measurement.cpuMs === undefined ? [] : [measurement.cpuMs]));
    return {
      images: chosen.length,
      p50Ms: Math.round(percentile(ms, 0.5)),
      p95Ms: Math.round(percentile(ms, 0.95)),
      maxMs: Math.round(Math.max(0, ...ms)),
      ...(variant === 'prepared'
        ? {
            preprocessP50Ms: Math.round(
              percentile(
                chosen.map((measurement) => measurement.preprocessMs),
                0.5,
              ),
            ),
          }
        : {}),
      ...(withCpu && cpu.length > 0 ? { cpuP50Ms: Math.round(percentile(cpu, 0.5)), cpuP95Ms: Math.round(percentile(cpu, 0.95)) } : {}),
    };
  };
  return { raw: summary('raw'), prepared: summary('prepared') };
}

/** The images read worst (raw or prepared), to see at a glance where the errors are. */
export function worst(measurements: readonly Measurement[], count: number) {
  const images = new Map<string, { document: string; condition: string; raw: number; prepared: number }>();
  for (const measurement of measurements) {
    const key = `${measurement.document} ${measurement.condition}`;
    const image = images.get(key) ?? { document: measurement.document, condition: measurement.condition, raw: 0, prepared: 0 };
    image[measurement.variant] = round(measurement.cer);
    images.set(key, image);
  }
  return [...images.values()].sort((a, b) => Math.max(b.raw, b.prepared) - Math.max(a.raw, a.prepared)).slice(0, count);
}

export function tesseractPeakRssMb(measurements: readonly Measurement[]): number | undefined {
  const peaks = measurements.flatMap((measurement) => (measurement.tesseractMaxRssKb === undefined ? [] : [measurement.tesseractMaxRssKb]));
  return peaks.length === 0 ? undefined : round(Math.max(...peaks) / 1024, 1);
}

/** Tesseract (or GNU time) processes whose parent is this one, from /proc: after the run there must be none. */
export function childProcessesLeft(): string[] {
  const left: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d{1,10}$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: the command name may hold spaces, so split after the last ')'.
      const close = stat.lastIndexOf(')');
      const parent = Number(stat.slice(close + 2).split(' ')[1]);
      const name = stat.slice(stat.indexOf('(') + 1, close);
      if (parent === process.pid && (name === 'tesseract' || name === 'time')) left.push(`${entry} ${name}`);
    } catch {
      // The process ended while the list was read.
    }
  }
  return left;
}
