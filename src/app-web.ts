import { defaultCatchUpDays } from './app-catchup.js';
import { createWebCommand } from './commands/web.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import type { Config } from './config.js';
import type { SettingsDefaults } from './commands/settings/settings-view.js';
import type { KnowledgeStore } from './knowledge/index.js';
import type { SpaceSettingsStore } from './settings/space-settings-store.js';
import type { PlatformAdapter } from './shared/channel.js';
import type { Logger } from './shared/log.js';
import { trimTrailingSlashes } from './shared/trailing-slashes.js';
import type { InboundMessage } from './shared/types.js';
import type { Storage } from './storage/storage.js';
import type { RedisLists } from './storage/redis-storage.js';
import { createAdminSite, type AdminSite } from './web/admin-site.js';
import { AuditLog } from './web/audit-log.js';
import { adminRoutes } from './web/pages/admin-routes.js';
import type { AdminServices } from './web/pages/admin-services.js';
import { loadStaticAssets } from './web/static-assets.js';
import { defaultWebSessionLimits, WebSessions, type WebSessionLimits } from './web/web-sessions.js';

// The admin web page's wiring (docs/architecture.md, "Admin web page"): sessions and the audit log in the shared
// store, `/web` in the chat, and the site the HTTP server serves under /admin once it listens.

export interface WebWiring {
  sessions: WebSessions;
  /** The HTTP server listens at `address` (http://127.0.0.1:port): `/web` links point there unless PUBLIC_BASE_URL is set. */
  listening(address: string): void;
  /** The site, with what only the running service knows (readiness, metrics, the platforms' admin checks). */
  site(services: Pick<AdminServices, 'readiness' | 'guardCounts' | 'stillSpaceAdmin' | 'model'>): AdminSite;
}

export interface WebWiringOptions {
  config: Config;
  log: Logger;
  storage: Storage;
  /** With Redis: the audit log's list (shared by every process). */
  redis?: RedisLists;
  commands: CommandDispatcher;
  knowledge: KnowledgeStore;
  spaceSettings: SpaceSettingsStore;
  adapters: readonly PlatformAdapter[];
  now: () => Date;
  limits?: WebSessionLimits;
  /** /settings's defaults and the outbound DLP's scanner, as app.ts built them for the chat's /settings. */
  settingsDefaults: SettingsDefaults;
  credentialKinds(text: string): string[];
}

export function wireWeb(options: WebWiringOptions): WebWiring {
  const { config, log, storage } = options;
  const sessions = new WebSessions(storage.web, options.limits ?? defaultWebSessionLimits, () => options.now().getTime());
  const audit = new AuditLog(storage.web, log, options.redis);
  let localAddress: string | undefined;
  const sendPrivately = async (message: InboundMessage, text: string): Promise<'sent' | 'unavailable'> => {
    const adapter = options.adapters.find((candidate) => candidate.platform === message.platform);
    if (!adapter?.sendPrivately) return 'unavailable';
    await adapter.sendPrivately(message.sender.id, text);
    return 'sent';
  };
  options.commands.add(
    createWebCommand({
      sessions,
      baseUrl: () => (localAddress === undefined ? undefined : trimTrailingSlashes(config.PUBLIC_BASE_URL ?? localAddress)),
      sendPrivately,
      timeZone: config.BOT_TIMEZONE,
    }),
  );
  return {
    sessions,
    listening: (address) => (localAddress = address),
    site: (running) =>
      createAdminSite({
        sessions,
        audit,
        routes: adminRoutes({
          ...running,
          knowledge: options.knowledge,
          storage,
          spaceSettings: options.spaceSettings,
          sessions,
          audit,
          maxDocumentBytes: config.MAX_ATTACHMENT_BYTES,
          settingsDefaults: options.settingsDefaults,
          credentialKinds: options.credentialKinds,
          catchUpDefaultDays: defaultCatchUpDays,
          timeZone: config.BOT_TIMEZONE,
          log,
          now: options.now,
        }),
        assets: loadStaticAssets(log),
        language: config.BOT_LANGUAGE,
        ...(config.PUBLIC_BASE_URL ? { publicBaseUrl: config.PUBLIC_BASE_URL } : {}),
        log,
        now: () => options.now().getTime(),
      }),
  };
}
