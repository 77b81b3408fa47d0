import Papa from 'papaparse';

// One row per line as "header: value" pairs, so each line stands alone in a chunk and in a search result.

function cellText(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\s+/g, ' ').trim();
  if (Array.isArray(value)) return value.map(cellText).filter(Boolean).join(', ');
  return '';
}

export function csvToPlainText(csv: string): string {
  const parsed = Papa.parse<Record<string, unknown>>(csv, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header, index) => header.trim() || `column ${index + 1}`,
  });
  const lines: string[] = [];
  for (const row of parsed.data) {
    const pairs: string[] = [];
    for (const [header, value] of Object.entries(row)) {
      const text = cellText(value);
      if (text) pairs.push(`${header === '__parsed_extra' ? 'extra' : header}: ${text}`);
    }
    if (pairs.length > 0) lines.push(pairs.join('; '));
  }
  return lines.join('\n');
}
