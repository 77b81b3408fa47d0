import { sourceMarker } from '../../src/shared/source-markers.js';
import { maxReadCharacters } from './source-words.js';

// Where a knowledge-base citation's text is: code writes `[source: KB › document]` after every passage, in the
// query_knowledge result and in the naive-RAG block alike (src/shared/citations.ts), so a passage is the text
// between the marker before it (or the first numbered passage "[1] ") and its own marker.

const markerOpening = '[source:';
/** A URL marker is at most this long (source-markers.ts bounds its origin), so the scan for its `]` is too. */
const maxMarkerLength = 2100;
const numberedLine = /^\[\d{1,3}\][ \t]{1,4}/gm;

/** The passage text before each label's markers, per label; labels never found are absent. */
export function passagesByLabel(texts: readonly string[], labels: readonly string[]): Map<string, string> {
  const markers = labels.map((label) => ({ label, marker: sourceMarker(label) })).sort((left, right) => right.marker.length - left.marker.length);
  const found = new Map<string, string[]>();
  for (const whole of texts) {
    const text = whole.slice(0, maxReadCharacters);
    const firstPassage = /(?:^|\n)\[1\][ \t]/.exec(text);
    let regionStart = firstPassage ? firstPassage.index : 0;
    for (let at = text.indexOf(markerOpening); at !== -1; at = text.indexOf(markerOpening, at + 1)) {
      const match = markers.find((candidate) => text.startsWith(candidate.marker, at));
      const close = text.slice(at, at + maxMarkerLength).indexOf(']');
      const end = match ? at + match.marker.length : at + (close === -1 ? markerOpening.length : close + 1);
      if (match && at > regionStart) {
        // The naive block names the document above the passage: its label is no content of the passage.
        const region = text.slice(regionStart, at).replaceAll(match.label, ' ').replace(numberedLine, '');
        found.set(match.label, [...(found.get(match.label) ?? []), region]);
      }
      regionStart = Math.max(regionStart, end);
    }
  }
  return new Map([...found].map(([label, regions]) => [label, regions.join('\n')]));
}
