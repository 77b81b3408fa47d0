import type { Localized } from '../../src/shared/i18n.js';
import { pick } from '../../src/shared/i18n.js';
import type { Citation, GuardEvent, Language, TurnRecord } from '../../src/shared/types.js';
import { isSourceHeadingLine, markedOrigins, startsWithSourceHeading, stripSourceMarkers } from '../../src/shared/source-markers.js';
import { cleanUrl, urlKey } from '../../src/shared/url-normalize.js';
import { citationsTheAnswerUsed } from './source-usage.js';

// Sources guard (after the numbers guard). URLs come only from this turn's tools: their citations and the
// `[source: URL]` markers in their results (URLs the user wrote in the question may stay in the text too). A URL
// the model typed that no tool returned is removed — a Markdown link keeps its text, the sentence stays. The
// model's own source list and copied markers are removed, and ONE list is appended by code under a Thai (or
// English) heading: deduplicated by normalized URL (scheme, host case, default port, fragment, tracking
// parameters, trailing slash), in the order the tools returned them; knowledge-base citations by their label
// ("KB name › document"), and of those only the passages the answer used (source-usage.ts).

const heading: Localized = { th: 'แหล่งที่มา', en: 'Sources' };
const maxLabel = 120;

const linkOrUrl = /\[([^\][\n]{1,300})\]\(\s{0,2}((?:https?:\/\/|www\.)[^\s)]{1,2048})\s{0,2}\)|<?((?:https?:\/\/|www\.)[^\s<>"'`\])]{1,2048})>?/gi;
const listItem = /^[ \t]{0,8}(?:[-*+•]|\d{1,3}[.)])[ \t]{1,4}\S/;

const leadIn =
  /(?:(?:ดู|อ่าน|ศึกษา)(?:รายละเอียด)?(?:เพิ่มเติม|ต่อ)?(?:ได้)?(?:ที่)?|\b(?:see|visit|(?:read )?more at|details at|available at))[ \t]{0,4}:?[ \t]{0,4}\uffff[ \t]{1,4}(?=[^\s.,;:!?])/gi;

export interface SourcesResult {
  text: string;
  citations: Citation[];
  events: GuardEvent[];
}

function keyOf(url: string): string | null {
  return urlKey(url.toLowerCase().startsWith('www.') ? `https://${url}` : url);
}

/** This turn's citations in first-returned order, deduplicated by normalized URL (KB citations by label). */
export function collectCitations(record: TurnRecord): Citation[] {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  const add = (citation: Citation): void => {
    const url = citation.url === undefined ? undefined : cleanUrl(citation.url);
    if (citation.url !== undefined && !url) return;
    const key = url ? keyOf(url) : `label:${citation.label.trim()}`;
    if (!key || seen.has(key) || (!url && citation.label.trim() === '')) return;
    seen.add(key);
    citations.push(url ? { label: citation.label, url } : { label: citation.label });
  };
  for (const call of record.toolCalls) {
    call.citations.forEach(add);
    for (const url of markedOrigins(call.result)) add({ label: cleanUrl(url) ?? url, url });
  }
  record.citations.forEach(add);
  return citations;
}

function isListish(line: string): boolean {
  return listItem.test(line) || /^[ \t]{0,8}(?:<?https?:\/\/|\[[^\]\n]{1,300}\]\(https?:)/i.test(line);
}

/** Cuts a trailing source list the model wrote (a heading followed only by list items or URLs). */
function removeModelSourceList(text: string): { text: string; removed: boolean } {
  const lines = text.split('\n');
  let index = lines.length - 1;
  while (index >= 0 && (lines[index] ?? '').trim() === '') index--;
  let listStart = index + 1;
  while (index >= 0 && ((lines[index] ?? '').trim() === '' || isListish(lines[index] ?? ''))) {
    if ((lines[index] ?? '').trim() !== '') listStart = index;
    index--;
  }
  const candidate = lines[index] ?? '';
  const headingOnly = isSourceHeadingLine(candidate);
  const headingWithUrls = startsWithSourceHeading(candidate) && /https?:\/\/|www\./i.test(candidate) && listStart === lines.length;
  if (index >= 0 && (headingOnly || headingWithUrls)) return { text: lines.slice(0, index).join('\n'), removed: true };
  const trailingUrls = lines.slice(listStart).filter((line) => line.trim() !== '');
  if (trailingUrls.length > 0 && trailingUrls.every((line) => /https?:\/\/|www\./i.test(line) && listItem.test(line))) {
    return { text: lines.slice(0, listStart).join('\n'), removed: true };
  }
  return { text, removed: false };
}

function sanitizeLabel(label: string, url: string | undefined): string {
  const flat = label
    .replace(/[[\]]/g, (bracket) => (bracket === '[' ? '(' : ')'))
    .replace(/\s{1,64}/g, ' ')
    .trim();
  const shown = flat === '' ? (url ?? '') : flat;
  return shown.length > maxLabel ? `${shown.slice(0, maxLabel - 1).trimEnd()}…` : shown;
}

/** The one source-list format Saeng uses (turn answers and /research): a heading, then `n. [label](url)`. */
export function renderSourceList(citations: readonly Citation[], language: Language): string {
  const items = citations.map((citation, index) => {
    const label = sanitizeLabel(citation.label, citation.url);
    const entry = citation.url === undefined ? label : label === citation.url ? citation.url : `[${label}](${citation.url})`;
    return `${index + 1}. ${entry}`;
  });
  return `**${pick(heading, language)}**\n${items.join('\n')}`;
}

export function applySources(answer: string, record: TurnRecord): SourcesResult {
  const { body, citations, events } = sourcesBody(answer, record);
  const used = citationsTheAnswerUsed(body, record, citations);
  events.push(...used.events);
  const final = used.citations.length > 0 ? `${body.trimEnd()}\n\n${renderSourceList(used.citations, record.language)}` : body;
  return { text: final, citations: used.citations, events };
}

/**
 * The answer with the URLs no tool returned and the model's own source list removed, before the list is appended:
 * what a streamed answer shows of the text written so far (agent/streaming/).
 */
export function sourcesBody(answer: string, record: TurnRecord): { body: string; citations: Citation[]; events: GuardEvent[] } {
  const citations = collectCitations(record);
  const allowed = new Set(citations.flatMap((citation) => (citation.url ? [keyOf(citation.url)] : [])));
  linkOrUrl.lastIndex = 0;
  for (let match = linkOrUrl.exec(record.question); match !== null; match = linkOrUrl.exec(record.question)) {
    allowed.add(keyOf((match[2] ?? match[3] ?? '').replace(/[.,;:!?]{1,8}$/, '')));
  }
  const events: GuardEvent[] = [];
  const withoutMarkers = stripSourceMarkers(answer);
  const list = removeModelSourceList(withoutMarkers);
  if (list.removed) events.push({ guard: 'sources', action: 'rewrite', reason: "removed the model's own source list" });

  // A removed bare URL leaves a mark, so that the space or brackets around it go too (and nothing else is touched).
  const removedMark = '\uffff'; // a noncharacter: never in real text
  let removedUrls = 0;
  const text = list.text.replace(linkOrUrl, (whole, linkText: string | undefined, linkUrl: string | undefined, bare: string | undefined) => {
    if (linkText !== undefined && linkUrl !== undefined) {
      if (allowed.has(keyOf(linkUrl))) return whole;
      removedUrls++;
      return linkText;
    }
    const url = bare ?? '';
    const trailing = /[.,;:!?]{1,8}$/.exec(url)?.[0] ?? '';
    if (allowed.has(keyOf(url.slice(0, url.length - trailing.length)))) return whole;
    removedUrls++;
    return `${removedMark}${trailing}`;
  });
  if (removedUrls > 0) events.push({ guard: 'sources', action: 'rewrite', reason: `removed ${removedUrls} URL(s) that no tool returned in this turn` });

  const leftover = /^[ \t]{0,8}(?:[-*+•]|\d{1,3}[.)])?[ \t]{0,8}(?:(?:ที่มา|แหล่งที่มา|ดูเพิ่มเติม|อ่านต่อ|ลิงก์|ลิงค์|ลิ้งก์|ลิ้งค์|source|see|link)[ \t]{0,4}[:：]?)?[ \t]{0,8}$/i;
  const tidy = text
    .replace(/[ \t]{0,4}\([ \t]{0,4}\uffff[ \t]{0,4}\)/g, '')
    // "…ครับ ดูเพิ่มเติมที่ <URL> ส่วน…": mid-sentence, the lead-in goes with the URL it pointed at.
    .replace(leadIn, `${removedMark} `)
    .replace(/[ \t]{0,4}\uffff/g, removedMark)
    .split('\n')
    .filter((line) => !(line.includes(removedMark) && leftover.test(line.replaceAll(removedMark, ''))))
    .map((line) => line.replaceAll(removedMark, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  // Untouched answers stay byte for byte (no trimming, no newline folding).
  const body = removedUrls > 0 || list.removed || withoutMarkers !== answer ? tidy : answer;
  return { body, citations, events };
}
