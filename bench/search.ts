import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { isAdultContent } from '../agent/tools/web-search/adult-filter.js';
import { hardReject } from '../agent/tools/web-search/hard-rejects.js';
import { applyLexicalLayers, relevanceThreshold } from '../agent/tools/web-search/lexical-layers.js';
import { byRelevance, capPerDomain, mergeResults } from '../agent/tools/web-search/merge-results.js';
import { isNavigationPage } from '../agent/tools/web-search/navigation-filter.js';
import { parseBrave } from '../agent/tools/web-search/providers/brave.js';
import { parseSearxng } from '../agent/tools/web-search/providers/searxng.js';
import { parseTavily } from '../agent/tools/web-search/providers/tavily.js';
import { type QueryIntent, analyzeIntent } from '../agent/tools/web-search/query-intent.js';
import { type QueryPlan, planQuery } from '../agent/tools/web-search/query-variants.js';
import { containment, queryTrigrams, textTrigrams } from '../agent/tools/web-search/trigrams.js';
import type { ProviderOutcome, RawResult, ScoredCandidate, SearchProvider } from '../agent/tools/web-search/types.js';
import { isQuick, withQuickSettings } from './quick.js';

// `npm run bench -- search [--iterations N]`: layers 1–2 (variants, merge, filters, trigram relevance,
// hard rejects) over 50 results, against a naive baseline in the same run that scores every result
// before filtering and rebuilds the query's trigram set for each result.

const provider: SearchProvider = { name: 'searxng', siteRestriction: 'query', search: () => Promise.reject(new Error('offline')) };
const currentYear = 2026;

function fixture(name: string, parse: (body: string) => ProviderOutcome): RawResult[] {
  const outcome = parse(readFileSync(new URL(`../test/fixtures/search/${name}`, import.meta.url), 'utf8'));
  if (!outcome.ok) throw new Error(`fixture ${name}: ${outcome.detail}`);
  return outcome.results;
}

const gold = fixture('searxng-thai-gold.json', parseSearxng);
const pythonThai = fixture('brave-thai-python.json', parseBrave);
const tax = fixture('tavily-thai-tax.json', parseTavily);
const searxngPython = fixture('searxng-python.json', parseSearxng);
const bravePython = fixture('brave-python.json', parseBrave);

/** 50 results as three variants would return them: relevant, stale, unrelated and duplicate. */
const scenarios: { name: string; query: string; lists: RawResult[][] }[] = [
  { name: 'thai-gold-price-today', query: 'ช่วยหาราคาทองคำวันนี้หน่อย', lists: [gold, [...searxngPython, ...tax], gold.slice(0, 1)] },
  { name: 'python-3.13-whats-new', query: 'Python 3.13 มีอะไรใหม่', lists: [pythonThai, bravePython, searxngPython.slice(0, 21)] },
];

/** The naive version: no prefilters (every result is scored), query trigrams rebuilt per result. */
function naiveLayers(plan: QueryPlan, intent: QueryIntent, lists: readonly (readonly RawResult[])[]): ScoredCandidate[] {
  const scored: ScoredCandidate[] = [];
  for (const candidate of mergeResults(lists).candidates) {
    const text = `${candidate.title} ${candidate.snippet}`;
    const score = containment(queryTrigrams(plan.simplified), textTrigrams(text));
    const rejected = hardReject(intent, candidate.title, text) !== null || score < relevanceThreshold;
    if (isNavigationPage(candidate.url, candidate.title) || isAdultContent(candidate.url, candidate.title, candidate.snippet) || rejected) continue;
    scored.push({ ...candidate, score });
  }
  return capPerDomain(scored.sort(byRelevance), 2).kept;
}

function optimizedLayers(query: string, lists: readonly (readonly RawResult[])[]): ScoredCandidate[] {
  const plan = planQuery(query, provider);
  return applyLexicalLayers(plan, analyzeIntent(plan, currentYear), lists).kept;
}

function baselineLayers(query: string, lists: readonly (readonly RawResult[])[]): ScoredCandidate[] {
  const plan = planQuery(query, provider);
  return naiveLayers(plan, analyzeIntent(plan, currentYear), lists);
}

interface Timing {
  meanMs: number;
  p50Ms: number;
  p95Ms: number;
}

function time(iterations: number, run: () => unknown): Timing {
  for (let index = 0; index < Math.min(200, iterations); index += 1) run();
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  samples.sort((left, right) => left - right);
  const at = (quantile: number) => samples[Math.min(samples.length - 1, Math.floor(quantile * samples.length))] ?? 0;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return { meanMs: round(samples.reduce((sum, value) => sum + value, 0) / samples.length), p50Ms: round(at(0.5)), p95Ms: round(at(0.95)) };
}

/** Planted distractors in the Thai fixtures: which results layers 1–2 must keep. */
const expectations: { fixture: string; query: string; results: RawResult[]; keep: string[] }[] = [
  {
    fixture: 'searxng-thai-gold.json',
    query: 'ราคาทองคำวันนี้',
    results: gold,
    keep: ['https://www.goldtraders.or.th/default.aspx', 'https://www.sanook.com/money/gold-today-5-mar-2569/', 'https://www.sanook.com/money/gold-update-69/'],
  },
  {
    fixture: 'brave-thai-python.json',
    query: 'Python 3.13 มีอะไรใหม่',
    results: pythonThai,
    // The snake article is lexically close: layer 3 (the model's YES/NO) is the layer meant to drop it.
    keep: [
      'https://www.blognone.com/node/142000',
      'https://docs.python.org/3/whatsnew/3.13.html',
      'https://www.python.org/downloads/release/python-3130/',
      'https://www.sarakadee.com/python-snake',
      'https://docs.python.org/3.13/whatsnew/3.13.html',
    ],
  },
  {
    fixture: 'tavily-thai-tax.json',
    query: 'ยื่นภาษีออนไลน์ปี 2568 หมดเขตวันไหน',
    results: tax,
    keep: ['https://www.rd.go.th/faq/2568.html', 'https://www.rd.go.th/e-filing/2568.html'],
  },
];

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--iterations', '50']);
  const flag = argv.indexOf('--iterations');
  const iterations = flag >= 0 ? Math.max(10, Number(argv[flag + 1]) || 2000) : 2000;
  const runs = scenarios.map((scenario) => {
    const resultCount = scenario.lists.reduce((sum, list) => sum + list.length, 0);
    const kept = optimizedLayers(scenario.query, scenario.lists);
    const baselineKept = baselineLayers(scenario.query, scenario.lists);
    const optimized = time(iterations, () => optimizedLayers(scenario.query, scenario.lists));
    const baseline = time(iterations, () => baselineLayers(scenario.query, scenario.lists));
    return {
      name: scenario.name,
      results: resultCount,
      kept: kept.length,
      sameAsBaseline: JSON.stringify(kept.map((result) => result.url)) === JSON.stringify(baselineKept.map((result) => result.url)),
      optimized,
      baseline,
      speedup: Math.round((baseline.meanMs / Math.max(optimized.meanMs, 1e-6)) * 10) / 10,
    };
  });
  const fixtures = expectations.map((expectation) => {
    const kept = optimizedLayers(expectation.query, [expectation.results]).map((result) => result.url);
    const wrongKeeps = kept.filter((url) => !expectation.keep.includes(url));
    const wrongDrops = expectation.keep.filter((url) => !kept.includes(url));
    return {
      fixture: expectation.fixture,
      results: expectation.results.length,
      kept: kept.length,
      wrongKeeps: wrongKeeps.length,
      wrongDrops: wrongDrops.length,
    };
  });
  const worstP95 = Math.max(...runs.map((run) => run.optimized.p95Ms));
  process.stdout.write(
    `${JSON.stringify({ bench: 'search', quick: isQuick(argv), layers: '1-2', iterations, targetMs: 5, meetsTarget: worstP95 < 5, worstP95Ms: worstP95, scenarios: runs, fixtures })}\n`,
  );
}
