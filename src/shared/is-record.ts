/** A plain object (not null, not an array): the first check when reading JSON of unknown shape. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
