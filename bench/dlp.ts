import { scanForCredentials } from '../src/dlp/scan.js';
import { dlpCorpus, obfuscationForms, positiveKinds } from '../test/support/dlp-corpus/index.js';
import { corpusFigures, goals, runCorpus, type Ratio } from '../test/support/dlp-corpus/measure.js';
import { xquadSamples } from '../test/support/dlp-corpus/negatives-prose.js';
import { formatRulesOnly } from './dlp-baseline.js';
import { externalSection, worstCaseTiming } from './dlp-external.js';
import { round, thaiMessages, timeScans, withTokenNearEnd } from './dlp-timing.js';

// `npm run bench -- dlp [--quick]`: the outbound credential scanner on the generated corpus of
// test/support/dlp-corpus/ — recall per kind (plain and per obfuscated form), false blocks overall, on Thai prose
// and per negative class — and the time per call on 4 KB and 100 KB messages, each against the goals of issue 13.
// Then `external`: the same scanner on a held-out public corpus (bench/dlp-external.ts), and the time of the
// 960 KB worst case (goal < 200 ms).
// Targets: ≥ 99% of plain positives (every kind ≥ 95%), ≥ 95% of each obfuscated form, ≤ 0.2% false blocks and
// none on Thai prose, p99 < 0.5 ms at 4 KB and < 20 ms at 100 KB.

const rate = (ratio: Ratio) => round(ratio.rate);

export async function main(argv: string[]): Promise<void> {
  const quick = argv.includes('--quick');
  const corpus = dlpCorpus();
  // Times first, while the heap holds the corpus only: after the corpus run's outcomes pile up, the collector's
  // pauses on this process' own heap (not the bot's) were a third of the 960 KB case's time.
  const paragraphs = xquadSamples()
    .filter((sample) => sample.context === 'xquad-paragraph')
    .map((sample) => sample.text);
  const thaiPositives = corpus.filter((sample) => sample.kind !== 'negative' && sample.form === 'plain' && sample.context === 'thai');
  const small = thaiMessages(paragraphs, 4 * 1024, 16);
  const large = thaiMessages(paragraphs, 100 * 1024, 8);
  const timing = {
    clean4KB: timeScans(small, quick ? 500 : 5_000),
    token4KB: timeScans(withTokenNearEnd(small, thaiPositives), quick ? 500 : 5_000),
    clean100KB: timeScans(large, quick ? 30 : 300),
    token100KB: timeScans(withTokenNearEnd(large, thaiPositives), quick ? 30 : 300),
    worstCase960KB: worstCaseTiming(quick),
  };

  const started = performance.now();
  const outcomes = runCorpus(corpus, (text) => scanForCredentials(text));
  const corpusMs = performance.now() - started;
  const figures = corpusFigures(outcomes);

  const perKind = Object.fromEntries(
    positiveKinds.map((kind) => {
      const ofKind = outcomes.filter((outcome) => outcome.sample.kind === kind);
      const forms = Object.fromEntries(
        obfuscationForms.flatMap((form) => {
          const cell = ofKind.filter((outcome) => outcome.sample.form === form);
          return cell.length === 0 ? [] : [[form, round(cell.filter((outcome) => outcome.blocked).length / cell.length)]];
        }),
      );
      const plain = figures.plain.byKind[kind];
      return [kind, { plain: rate(plain), plainSamples: plain.samples, ...forms }];
    }),
  );
  const falseBlocksByClass = Object.fromEntries(Object.entries(figures.negatives.byClass).map(([name, ratio]) => [name, `${ratio.blocked}/${ratio.samples}`]));

  const baselineFigures = corpusFigures(runCorpus(corpus, formatRulesOnly));
  const baseline = {
    what: 'the same format rules once on the text as written: no normalization forms, no labelled secrets',
    plainOverall: rate(baselineFigures.plain.overall),
    obfuscatedOverall: rate(baselineFigures.obfuscated.overall),
    byForm: Object.fromEntries(Object.entries(baselineFigures.obfuscated.byForm).map(([form, ratio]) => [form, rate(ratio)])),
    falseBlocks: `${baselineFigures.negatives.falseBlocks.blocked}/${baselineFigures.negatives.falseBlocks.samples}`,
    timing: {
      clean4KB: timeScans(small, quick ? 500 : 5_000, formatRulesOnly),
      clean100KB: timeScans(large, quick ? 30 : 300, formatRulesOnly),
    },
  };

  const lowKinds = positiveKinds.filter((kind) => figures.plain.byKind[kind].rate < goals.plainPerKind);
  const lowForms = Object.entries(figures.obfuscated.byForm).filter(([, ratio]) => ratio.rate < goals.perObfuscatedForm);
  const result = {
    bench: 'dlp',
    node: process.version,
    corpus: {
      samples: corpus.length,
      plainPositives: figures.plain.overall.samples,
      obfuscatedPositives: figures.obfuscated.overall.samples,
      negatives: figures.negatives.falseBlocks.samples,
      scanAllMs: round(corpusMs),
    },
    recall: {
      plainOverall: rate(figures.plain.overall),
      obfuscatedOverall: rate(figures.obfuscated.overall),
      byForm: Object.fromEntries(Object.entries(figures.obfuscated.byForm).map(([form, ratio]) => [form, rate(ratio)])),
      byKind: perKind,
    },
    falseBlocks: {
      overall: round(figures.negatives.falseBlocks.rate),
      overallCount: `${figures.negatives.falseBlocks.blocked}/${figures.negatives.falseBlocks.samples}`,
      thaiProse: `${figures.negatives.thaiProse.blocked}/${figures.negatives.thaiProse.samples}`,
      byClass: falseBlocksByClass,
    },
    timing,
    baseline,
    external: externalSection(),
    goals: {
      plainOverallAtLeast99: figures.plain.overall.rate >= goals.plainOverall,
      everyKindPlainAtLeast95: lowKinds.length === 0,
      kindsBelow95: lowKinds,
      everyObfuscatedFormAtLeast95: lowForms.length === 0,
      formsBelow95: lowForms.map(([form]) => form),
      falseBlocksAtMost0_2Percent: figures.negatives.falseBlocks.rate <= goals.falseBlocksOverall,
      noFalseBlockOnThaiProse: figures.negatives.thaiProse.blocked === 0,
      p99Under0_5MsAt4KB: timing.clean4KB.p99Ms < 0.5 && timing.token4KB.p99Ms < 0.5,
      p99Under20MsAt100KB: timing.clean100KB.p99Ms < 20 && timing.token100KB.p99Ms < 20,
      worstCase960KBUnder200Ms: timing.worstCase960KB.maxMs < 200,
    },
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
