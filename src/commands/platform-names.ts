import type { Localized } from '../shared/i18n.js';
import type { Platform } from '../shared/types.js';

/** What /status and /whoami call each platform. */
export const platformNames: Record<Platform, Localized> = {
  telegram: { th: 'Telegram', en: 'Telegram' },
  discord: { th: 'Discord', en: 'Discord' },
  line: { th: 'LINE', en: 'LINE' },
  console: { th: 'คอนโซล (เทอร์มินัล)', en: 'console (terminal)' },
};
