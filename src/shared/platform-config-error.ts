import { say, type Localized } from './i18n.js';
import type { Language } from './types.js';

// A platform that cannot start because of its configuration (a malformed or refused token, a missing webhook
// secret, Discord's disallowed intents): retrying cannot help, so the start-up stops with this line. Every adapter
// throws this one shape, so every such line names the variable and says what to do, in Thai and English.

export class PlatformConfigError extends Error {
  constructor(
    /** The setting to fix, e.g. `TELEGRAM_BOT_TOKEN`. */
    readonly variable: string,
    private readonly text: Localized,
    options?: { cause?: unknown },
  ) {
    super(text.en, options);
    this.name = 'PlatformConfigError';
  }

  /** The line for the operator, in BOT_LANGUAGE; never the token itself. */
  describe(language: Language): string {
    return say(this.text, language);
  }
}
