// The soak's arithmetic: a least-squares line through (turns, RSS) samples and the Prometheus text it reads them from.

export interface Line {
  /** Change of y per unit of x. */
  slope: number;
  /** The slope's standard error: how far it could be from the true one by the samples' scatter alone. */
  standardError: number;
}

/** Ordinary least squares of y on x; slope and error 0 with fewer than three distinct points. */
export function fitLine(points: readonly { x: number; y: number }[]): Line {
  const count = points.length;
  if (count < 3) return { slope: 0, standardError: 0 };
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / count;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / count;
  const spreadX = points.reduce((sum, point) => sum + (point.x - meanX) ** 2, 0);
  if (spreadX === 0) return { slope: 0, standardError: 0 };
  const slope = points.reduce((sum, point) => sum + (point.x - meanX) * (point.y - meanY), 0) / spreadX;
  const intercept = meanY - slope * meanX;
  const residuals = points.reduce((sum, point) => sum + (point.y - intercept - slope * point.x) ** 2, 0);
  return { slope, standardError: Math.sqrt(residuals / (count - 2) / spreadX) };
}

/** One unlabelled sample of a Prometheus text exposition (`name value`), undefined when absent. */
export function metricValue(exposition: string, name: string): number | undefined {
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name} `)) continue;
    const value = Number(
      line
        .slice(name.length + 1)
        .trim()
        .split(' ')[0],
    );
    return Number.isFinite(value) ? value : undefined;
  }
  return undefined;
}
