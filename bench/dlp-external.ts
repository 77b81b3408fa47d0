import { scanForCredentials } from '../src/dlp/scan.js';
import { externalSamples } from '../test/support/dlp-external/index.js';
import { externalFigures, ratio, runExternal, type ExternalFigures, type Scan } from '../test/support/dlp-external/measure.js';
import { formatRulesOnly } from './dlp-baseline.js';
import { round, worstCaseMessage } from './dlp-timing.js';

// The `external` section of `npm run bench -- dlp`: the scanner on a corpus it was not built from — secretlint's
// rule test snapshots (MIT, test/fixtures/dlp-external/secretlint/): each case with findings as the whole file
// and each finding in a Thai sentence, each case without findings as a clean message. Catch rate per secretlint
// kind and overall, the clean cases blocked (named by case and the kinds reported, never by value), and the same
// figures for the format rules alone, measured in the same run. And the time of one scan of the 960 KB worst case.

const worstCaseCharacters = 960 * 1024;

function summary(figures: ExternalFigures) {
  return {
    overall: round(figures.overall.all.rate),
    overallCount: ratio(figures.overall.all),
    wholeFile: ratio(figures.overall.file),
    thaiSentence: ratio(figures.overall.thai),
    falseBlocks: ratio(figures.clean),
    falseBlocksOn: figures.clean.failing.map((failing) => `${failing.source} (${failing.kinds.join(', ')})`),
  };
}

export function externalSection() {
  const samples = externalSamples();
  const measure = (scan: Scan) => externalFigures(runExternal(samples, scan));
  const figures = measure((text) => scanForCredentials(text));
  const baseline = measure(formatRulesOnly);
  return {
    corpus: 'secretlint rule test snapshots (MIT), test/fixtures/dlp-external/secretlint/: held out from the generator',
    samples: {
      credentials: figures.overall.all.samples,
      identifiers: figures.identifiers.samples,
      clean: figures.clean.samples,
    },
    ...summary(figures),
    byKind: Object.fromEntries(
      Object.entries(figures.byKind).map(([kind, tallies]) => [
        kind,
        { rate: round(tallies.all.rate), wholeFile: ratio(tallies.file), thaiSentence: ratio(tallies.thai) },
      ]),
    ),
    identifiersBlocked: `${ratio(figures.identifiers)} (AWS account, Azure tenant and client ids: not credentials, reported apart)`,
    missed: figures.missed.map((miss) => `${miss.source} ${miss.kind} (${miss.context})`),
    baseline: {
      what: 'the same format rules once on the text as written (bench/dlp-baseline.ts)',
      ...summary(baseline),
      byKind: Object.fromEntries(Object.entries(baseline.byKind).map(([kind, tallies]) => [kind, ratio(tallies.all)])),
    },
  };
}

/** Milliseconds per scan of the 960 KB worst case (bench/dlp-timing.ts worstCaseMessage), after a warm-up scan. */
export function worstCaseTiming(quick: boolean) {
  const message = worstCaseMessage(worstCaseCharacters);
  const time = (scan: Scan, runs: number) => {
    const found = scan(message).found;
    const samples: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      scan(message);
      samples.push(performance.now() - started);
    }
    const sorted = [...samples].sort((a, b) => a - b);
    return { medianMs: round(sorted[Math.floor(sorted.length / 2)] ?? 0), maxMs: round(sorted.at(-1) ?? 0), runs, found };
  };
  return {
    characters: message.length,
    ...time((text) => scanForCredentials(text), quick ? 1 : 7),
    baseline: time(formatRulesOnly, quick ? 1 : 7),
  };
}
