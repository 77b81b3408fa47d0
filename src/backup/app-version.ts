import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The version in Saeng's package.json, found by walking up from `from` (src/backup/ under tsx, dist/src/backup/
 * when built); '0.0.0' if there is none.
 */
export function appVersion(from: string = import.meta.dirname): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
      if (
        typeof parsed === 'object' &&
        parsed !== null &&
        'name' in parsed &&
        parsed.name === 'saeng' &&
        'version' in parsed &&
        typeof parsed.version === 'string'
      ) {
        return parsed.version;
      }
    } catch {
      // No package.json here (or not ours): look one folder up.
    }
    if (path.dirname(folder) === folder) return '0.0.0';
  }
}
