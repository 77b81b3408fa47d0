// The `[source: …]` marker: code writes one after every web result line and knowledge passage, the sources guard
// trusts only these, and history compression strips them. One module knows the format, so the three agree.

/** A marker as code writes it after a line of tool output: a URL or a "KB › document" label. */
export function sourceMarker(origin: string): string {
  return `[source: ${origin}]`;
}

// A marker with a URL-like origin (no spaces): what the sources guard collects from tool results.
const urlMarker = /\[source:\s{0,4}([^\s\][]{1,2048})\s{0,4}\]/gi;
// Any marker, URL or label ("[source: FAQ › refund.md]"), with the spaces before it.
const anyMarker = /[ \t]{0,4}\[source:[^\][\n]{0,300}\]/gi;
// What a provider's snippet might contain to look like a marker.
const markerLike = /\[\s{0,4}source\s{0,4}:/gi;

/** The origins of the URL markers in a tool result, in order. */
export function markedOrigins(text: string): string[] {
  return [...text.matchAll(urlMarker)].map((match) => match[1] ?? '');
}

/** Removes every `[source: …]` marker (URL or knowledge-base label) and the spaces before it. */
export function stripSourceMarkers(text: string): string {
  return text.replace(anyMarker, '');
}

/** Defuses `[source:` inside text from outside (search snippets), so only code-written markers exist. */
export function neutralizeSourceMarkers(text: string): string {
  return text.replace(markerLike, '(source:');
}

const headingLine =
  /^[ \t]{0,3}(?:#{1,6}[ \t]{1,3})?(?:\*\*|__)?[ \t]{0,2}(?:แหล่งที่มา|แหล่งอ้างอิง|อ้างอิง|ที่มา|sources?|references?|citations?)[ \t]{0,2}(?:\*\*|__)?[ \t]{0,2}[:：]?[ \t]{0,2}(?:\*\*|__)?/i;

/** A line that is only a source-list heading ("**แหล่งที่มา**", "## Sources:", …). */
export function isSourceHeadingLine(line: string): boolean {
  const match = headingLine.exec(line.slice(0, 200));
  return match !== null && /^[\s:：*_]*$/.test(line.slice(match[0].length, 200));
}

/** A line that starts with a source-list heading (it may carry URLs after it). */
export function startsWithSourceHeading(line: string): boolean {
  return headingLine.test(line.slice(0, 200));
}
