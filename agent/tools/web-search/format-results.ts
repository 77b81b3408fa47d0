import { pick } from '../../../src/shared/i18n.js';
import type { Citation, Language } from '../../../src/shared/types.js';
import { neutralizeSourceMarkers, sourceMarker } from '../../../src/shared/source-markers.js';
import { resultsHeading, sourcesNotice } from './notices.js';
import { oneLine } from './thai-text.js';
import type { Candidate } from './types.js';

// The block the model reads: one line per kept result, `title — snippet [source: URL]`, the marker added
// here by code. Only the turn's first block carries the "do not type URLs" instruction.

/** ToolContext.turnState key shared by web_search and deep_research. */
export const sourcesNoticeKey = 'web-search:sources-notice-sent';

const isoDate = /^(\d{4}-\d{2}-\d{2})/;
// A snippet must not smuggle in its own source marker: the sources guard trusts these markers.
export const neutralize = neutralizeSourceMarkers;

export function formatResultLine(result: Pick<Candidate, 'title' | 'snippet' | 'url' | 'publishedAt'>): string {
  const date = isoDate.exec(result.publishedAt ?? '')?.[1];
  const snippet = neutralize(oneLine(result.snippet, 500));
  const dated = date && !snippet.startsWith(date) ? `${date} · ${snippet}` : snippet;
  const title = neutralize(oneLine(result.title, 200)) || result.url;
  return dated === '' ? `${title} ${sourceMarker(result.url)}` : `${title} — ${dated} ${sourceMarker(result.url)}`;
}

/** The heading for a block of results: the full instruction the first time in a turn, short after. */
export function blockHeading(turnState: Map<string, unknown>, language: Language): string {
  if (turnState.get(sourcesNoticeKey) === true) return pick(resultsHeading, language);
  turnState.set(sourcesNoticeKey, true);
  return pick(sourcesNotice, language);
}

export function formatResultsBlock(results: readonly Candidate[], turnState: Map<string, unknown>, language: Language): string {
  return [blockHeading(turnState, language), ...results.map(formatResultLine)].join('\n');
}

export function citationsOf(results: readonly Pick<Candidate, 'title' | 'url'>[]): Citation[] {
  return results.map((result) => ({ label: result.title || result.url, url: result.url }));
}
