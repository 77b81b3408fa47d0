import { scanForCredentials } from '../../../src/dlp/scan.js';
import type { Logger } from '../../../src/shared/log.js';
import type { SearchProvider, SearchRequest } from './types.js';

// Search queries leave the machine (SearXNG's engines, Brave, Tavily): a credential the model or the user put in one
// would go to a third party. Every query is scanned by the one DLP scanner (src/dlp/scan.ts, Saeng's configured
// secrets included) before it is sent; a match blocks the search, and the log names the kinds, never the value.

/** The credential kinds found in text that is about to leave; empty when it may go. */
export type EgressScan = (text: string) => string[];

export function credentialEgressScan(secrets: readonly string[]): EgressScan {
  return (text) => {
    const scan = scanForCredentials(text, { secrets });
    return scan.found ? scan.kinds : [];
  };
}

/** Everything of a request that goes out: the query and any site restriction. */
function outgoingText(request: SearchRequest): string {
  return [request.query, ...(request.includeDomains ?? [])].join('\n');
}

/**
 * The provider as the last hop before the network: a request carrying a credential is never sent (the pipeline
 * checks the question first; this holds for every caller, variant and site restriction).
 */
export function scannedProvider(provider: SearchProvider, scan: EgressScan, log: Logger): SearchProvider {
  return {
    name: provider.name,
    siteRestriction: provider.siteRestriction,
    search(request, signal) {
      const kinds = scan(outgoingText(request));
      if (kinds.length === 0) return provider.search(request, signal);
      log.warn({ provider: provider.name, kinds }, 'web_search: query not sent, it carries a credential (DLP)');
      return Promise.resolve({ ok: false, kind: 'credential', detail: 'the query carries a credential' });
    },
  };
}
