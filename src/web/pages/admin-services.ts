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
  /** BOT_TIMEZONE: days and times on the pages. */
  timeZone: string;
  log: Logger;
  now(): Date;
}
