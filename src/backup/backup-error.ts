import { say, type Localized } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';

/**
 * A backup or restore that cannot go on, in plain words in both languages. The message (English) is for logs and
 * tests; the CLI shows `describe(language)`. Values name what failed: a file, a folder, a pid.
 */
export class BackupError extends Error {
  constructor(
    readonly text: Localized,
    readonly values: Record<string, string | number> = {},
  ) {
    super(say(text, 'en', values));
    this.name = 'BackupError';
  }

  describe(language: Language): string {
    return say(this.text, language, this.values);
  }
}
