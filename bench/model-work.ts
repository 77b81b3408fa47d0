import type { RequestBody } from '../test/fakes/model-server.js';
import { OneSlotCache, qwenTokenizer, tokenizerName, type Encode } from './model-work-cache.js';
import { renderChatMl, type RenderedPrompt } from './model-work-chatml.js';
import { figuresOf, scenarioFigures, type MeasuredRequest } from './model-work-figures.js';
import { scenarios, type Scenario } from './model-work-scenarios.js';
import { defaultHistoryLimits } from '../agent/history.js';
import { checkFigures, relevanceSplit, type CheckFigures } from './model-work-relevance.js';
import { openBench, type Policy, type World } from './model-work-world.js';
import { option } from './platform-measure.js';
import { isQuick, withQuickSettings } from './quick.js';

// `npm run bench -- model-work [--quick] [--turns N] [--rounds N] [--trace]`: the work the model server does for
// Saeng, in prompt tokens. Scenarios run through the real app against a fake llama-server; every request it
// received is rendered with Qwen3's chat template, counted with Qwen3's tokenizer and fed, in order, to a one-slot
// prompt cache: tokens processed = prompt − longest common token prefix with the request before (any conversation).
// reuse = 1 − processed / prompt. One slot per world: a bot whose model calls tools and one whose model does not
// are two models, so two servers; each slot's first request is cold and left out of reuse like the run's first.
// Baseline, from the same run: the same scenarios under the policy before (naive-RAG passages not kept in history).
// Generated tokens, which llama-server also keeps in the slot, are not counted as cached. --trace: one line per
// request on stderr.

const kindOf = (body: RequestBody): string =>
  body.stream !== true ? 'helper call (not streamed)' : Array.isArray(body.tools) && body.tools.length > 0 ? 'turn step' : 'turn step without tools';

/** The first request's parts: the system prompt's own tokens and those of the tool definitions (counted alone). */
function firstRequestSplit(body: RequestBody, rendered: RenderedPrompt, tokens: number, encode: Encode) {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  const system = messages[0]?.role === 'system' && typeof messages[0].content === 'string' ? messages[0].content : '';
  const tools = rendered.segments.find((segment) => segment.label === 'tools block');
  return {
    tokens,
    systemTokens: encode(system).length,
    toolTokens: tools ? encode(rendered.text.slice(tools.start, tools.end)).length : 0,
    tools: Array.isArray(body.tools) ? body.tools.length : 0,
  };
}

/** The policy before issue 28's part 1: history keeps no passages (none is named instead of repeated); every result is checked. */
const baselinePolicy: Policy = { historyLimits: { ...defaultHistoryLimits, maxPassagePairs: 0 }, environment: { SEARCH_LLM_FILTER: 'always' } };
const baselineDescription =
  'same scenarios, same run, the policy before: naive-RAG passages not kept in history, every search result to the model relevance check (SEARCH_LLM_FILTER=always)';

interface Run {
  scenarios: Scenario[];
  rounds: number;
  turns: number;
  trace: boolean;
}

/** Runs the scenarios round by round and passes every model request, in order, through its world's slot. */
async function measure(
  run: Run,
  policy: Policy,
): Promise<{ measured: MeasuredRequest[]; first: ReturnType<typeof firstRequestSplit> | undefined; check: CheckFigures }> {
  const encode = qwenTokenizer();
  const check: CheckFigures = { calls: 0, items: 0, processedTokens: 0, generatedTokens: 0 };
  const caches = new Map<Scenario['world'], OneSlotCache>();
  const measured: MeasuredRequest[] = [];
  let first: ReturnType<typeof firstRequestSplit> | undefined;
  const bench = await openBench();
  try {
    for (let round = 0; round < run.rounds; round++) {
      const worlds = new Map<Scenario['world'], World>();
      try {
        for (const scenario of run.scenarios) {
          const world = worlds.get(scenario.world) ?? (await bench.openWorld(scenario.world, policy));
          const cache = caches.get(scenario.world) ?? new OneSlotCache();
          caches.set(scenario.world, cache);
          worlds.set(scenario.world, world);
          const before = world.fake.chatRequests.length;
          await scenario.run({ world, conversation: (name = '') => `${scenario.name}-${round}${name}`, turns: run.turns, documentPath: bench.documentPath });
          try {
            world.fake.assertAllConsumed();
          } catch (error) {
            throw new Error(`model-work scenario ${scenario.name} did not run as scripted`, { cause: error });
          }
          for (const [index, body] of world.fake.chatRequests.slice(before).entries()) {
            const rendered = renderChatMl(body);
            const tokens = encode(rendered.text);
            const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
            const entry = { scenario: scenario.name, round, request: index + 1, kind: kindOf(body), ...cache.next({ rendered, tokens, hasTools }) };
            measured.push(entry);
            checkFigures(check, body, entry.processed, encode);
            first ??= firstRequestSplit(body, rendered, tokens.length, encode);
            if (run.trace)
              process.stderr.write(
                `${policy === baselinePolicy ? 'baseline: ' : ''}${entry.scenario} #${entry.request} ${entry.kind}: ${entry.total} tokens, ${entry.processed} processed (${entry.cause})\n`,
              );
          }
        }
      } finally {
        for (const world of worlds.values()) await world.close();
      }
    }
  } finally {
    await bench.close();
  }
  return { measured, first, check };
}

/** The requests that met a warm slot: all but each slot's first. */
const warm = (measured: readonly MeasuredRequest[]) => measured.filter((entry) => entry.cause !== 'cold cache');

/** The baseline's processed tokens and reuse beside the run's own figures. */
function withBaseline<T extends { reuse: number }>(figures: T, baseline: { reuse: number; processedTokens: number; promptTokens: number } | undefined) {
  return {
    ...figures,
    baselinePromptTokens: baseline?.promptTokens ?? 0,
    baselineProcessedTokens: baseline?.processedTokens ?? 0,
    baselineReuse: baseline?.reuse ?? 0,
  };
}

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--turns', '2', '--rounds', '1']);
  const quick = isQuick(argv);
  const run: Run = {
    scenarios: scenarios.filter((scenario) => !quick || scenario.quick),
    rounds: option(argv, 'rounds', 1),
    turns: option(argv, 'turns', 3),
    trace: argv.includes('--trace'),
  };
  const { measured, first, check } = await measure(run, {});
  const baseline = await measure(run, baselinePolicy);
  const report = {
    bench: 'model-work',
    quick,
    rounds: run.rounds,
    turns: run.turns,
    tokenizer: tokenizerName(),
    template: 'Qwen3 ChatML as llama-server renders it (tools in the system turn)',
    cache: 'one slot per world (tools, naive), shared by its conversations; prompt tokens only (generated tokens not counted as cached)',
    firstRequest: first ?? null,
    baseline: baselineDescription,
    overall: withBaseline(figuresOf(measured, warm(measured)), figuresOf(baseline.measured, warm(baseline.measured))),
    scenarios: scenarioFigures(measured).map((figures, index) => withBaseline(figures, scenarioFigures(baseline.measured)[index])),
    // The web-search relevance check: its model calls under both policies, and what code and model get to decide
    // on the labelled set (test/fixtures/search/relevance-labelled.json).
    relevanceCheck: { calls: check, baselineCalls: baseline.check, labelledSet: relevanceSplit(2026) },
    skipped: scenarios.filter((scenario) => !run.scenarios.includes(scenario)).map((scenario) => ({ scenario: scenario.name, reason: 'not part of --quick' })),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
