import type { SettingsDefaults } from '../../commands/settings/settings-view.js';
import type { KnowledgeStore } from '../../knowledge/index.js';
import type { SpaceSettingsStore } from '../../settings/space-settings-store.js';
import type { Logger } from '../../shared/log.js';
import type { Storage } from '../../storage/storage.js';
import type { AuditLog } from '../audit-log.js';
import type { WebSessions } from '../web-sessions.js';

// What the admin pages read and change: the same stores and services the chat commands use (so a change on the page
// and one in the chat are the same change), handed in by the composition root (src/app-web.ts).

export interface ModelReport {
  model: string;
  server: string;
  tools: boolean;
  vision: boolean;
  toolsSource: string;
  visionSource: string;
}

export interface AdminServices {
  knowledge: KnowledgeStore;
  storage: Pick<Storage, 'usage' | 'reminders' | 'groupLog'>;
  spaceSettings: SpaceSettingsStore;
  sessions: WebSessions;
  audit: AuditLog;
  /** What GET /readyz answers (its `detail`), for the overview's health section. */
  readiness(): Promise<{ ready: boolean; detail: Record<string, unknown> }>;
  model(): Promise<ModelReport>;
  /** Guard and DLP events since the start by kind (counts, never text); empty without metrics. */
  guardCounts(): Promise<{ guard: string; action: string; count: number }[]>;
  /**
   * Whether the person is still an admin of the space, asked of its platform where it tells us (Telegram's
   * getChatMember); undefined where it cannot say (the chat's word at log-in stands then).
   */
  stillSpaceAdmin(adminId: string, spaceKey: string): Promise<boolean | undefined>;
  /** MAX_ATTACHMENT_BYTES: the same limit as `/kb add`. */
  maxDocumentBytes: number;
  /** The bot-wide values an unset /settings field falls back to (shown beside a space's own, and the quota a group admin may not exceed). */
  settingsDefaults?: SettingsDefaults;
  /** The outbound DLP’s scanner, as /settings uses it: instructions holding a credential are not stored (absent: the pages store none). */
  credentialKinds?(text: string): string[];
  /** Days a group's messages are kept when catch-up is turned on without a number (/summary on). */
  catchUpDefaultDays?: number;
  /** BOT_TIMEZONE: days and times on the pages. */
  timeZone: string;
  log: Logger;
  now(): Date;
}
