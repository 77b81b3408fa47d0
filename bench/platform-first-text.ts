import type { PacedCall } from '../test/fakes/model-server.js';
import { startFakeModelServer } from '../test/fakes/model-server.js';
import { startSearxngFake } from '../test/fakes/search/searxng-fake.js';
import { tokenizerName } from './model-work-cache.js';
import { qwenPaceTokenizer } from './pace-tokenizer.js';
import { startBenchBots, type BenchPlatform } from './platform-bots.js';
import { firstTextPaths, observe, type FirstTextPath, type Observed } from './platform-first-text-paths.js';
import { answer, fixedNow, scriptTurn, searchResults, showsAnswer } from './platform-first-text-scenario.js';
import { round } from './platform-measure.js';

// Time to the first visible text: the scenario's turn (one web search, a ~250-token Thai answer) on a model paced
// like the CPU box, once per path with streaming off (STREAM_PLATFORMS=off: the baseline) and once with it on
// (the setting's default platforms), in the same run on the same fakes. Until streaming is merged, both rounds run
// the same code and "on" equals the baseline.

export interface FirstTextOptions {
  platforms: readonly BenchPlatform[];
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
  /** The model is this many times faster than the box (quick runs); figures are given raw and scaled back. */
  timeScale: number;
}

export const streamingModes = { off: 'off', on: 'telegram,discord,line,console' } as const;
type Mode = keyof typeof streamingModes;

const goalAfterFirstTokenMs = 1500;

const definitions = {
  delivered:
    'every time is from the message handed to the bot: Telegram the getUpdates answer carrying the update, Discord the MESSAGE_CREATE frame written, LINE the signed webhook POST sent, console router.handle called (the path `npm run cli` takes)',
  firstSignOfLife: 'the first call the user could notice: a typing action, LINE’s loading animation, a status line, or text',
  firstStatus: 'the first text that is not the answer (a status line such as "กำลังค้นเว็บ…"); null when none was shown',
  modelFirstAnswerToken: 'the fake model wrote the first content chunk of the turn’s last call (the answer after the search and the relevance check)',
  firstVisible:
    'the first sendMessage / sendMessageDraft / editMessageText, Discord POST or PATCH of a message, LINE reply or push, or console output whose text starts with the answer’s first characters',
  final: 'the last such call: the answer as it stays in the chat (finalTextIdentical compares its text, streaming on against off, byte for byte)',
  firstVisibleAfterFirstToken: 'firstVisible − modelFirstAnswerToken; goal ≤ 1500 ms, judged only on a run at the box’s speed (--time-scale 1)',
  ms: 'as measured in this run; boxMs: × the time scale, what the box would take (an overstatement of the platforms’ own share, which does not scale)',
  modelCalls:
    'per model call of the turn: prompt tokens (the request rendered with Qwen3’s chat template, counted with its tokenizer), processed (after the common prefix with the request before: one llama-server slot), generated, first byte and end',
};

/** A time in ms: as measured, and at the box's speed (× the time scale, which overstates the platform's share). */
interface Figure {
  ms: number;
  boxMs: number;
}

function figures(observed: Observed, calls: PacedCall[], scale: number) {
  const since = (at: number | undefined): Figure | null =>
    at === undefined ? null : { ms: round(at - observed.deliveredAt), boxMs: round((at - observed.deliveredAt) * scale) };
  const texts = observed.shown.filter((shown) => shown.text !== undefined && shown.text !== '' && !shown.refused);
  const answers = texts.filter((shown) => showsAnswer(shown.text ?? ''));
  const status = texts.find((shown) => !showsAnswer(shown.text ?? ''));
  const firstVisible = answers[0];
  const final = answers.at(-1);
  const firstToken = calls.at(-1)?.firstContentAt;
  const afterFirstToken = firstVisible && firstToken !== undefined ? firstVisible.at - firstToken : undefined;
  return {
    firstSignOfLife: observed.shown[0] ? { what: observed.shown[0].what, ...since(observed.shown[0].at) } : null,
    firstStatus: status ? { what: status.what, text: status.text, ...since(status.at) } : null,
    modelFirstAnswerToken: since(firstToken),
    firstVisible: firstVisible ? { what: firstVisible.what, ...since(firstVisible.at) } : null,
    final: final ? { what: final.what, ...since(final.at) } : null,
    firstVisibleAfterFirstToken: afterFirstToken === undefined ? null : { ms: round(afterFirstToken), boxMs: round(afterFirstToken * scale) },
    answerUpdates: answers.length,
    /** Text calls the fake platform refused (a method it lacks, a rate limit): not counted as shown. */
    refusedUpdates: observed.shown.filter((shown) => shown.refused).length,
    modelCalls: calls.map((call) => ({
      promptTokens: call.promptTokens,
      processedTokens: call.processedTokens,
      generatedTokens: call.generatedTokens,
      firstByte: since(call.firstByteAt),
      end: since(call.endAt),
    })),
    finalText: final?.text ?? '',
  };
}

type PathFigures = ReturnType<typeof figures>;

async function runMode(
  mode: Mode,
  paths: readonly FirstTextPath[],
  options: FirstTextOptions,
  model: Awaited<ReturnType<typeof startFakeModelServer>>,
  searchUrl: string,
) {
  // MODEL_TIMEOUT_MS as shipped (the longest silence): the test app's 5 s would cut the box's prompt reading short.
  const environment = {
    MODEL_TOOLS: 'on',
    MODEL_TIMEOUT_MS: '120000',
    SEARCH_PROVIDER: 'searxng',
    SEARXNG_URL: searchUrl,
    STREAM_PLATFORMS: streamingModes[mode],
  };
  const bots = await startBenchBots(options.platforms, paths.length + 1, { model, environment, now: fixedNow });
  const results: Partial<Record<FirstTextPath, PathFigures>> = {};
  try {
    // A turn first, not counted: every measured one then meets the prompt cache a turn before it left.
    scriptTurn(model);
    await observe('console', bots, paths.length);
    for (const [turn, path] of paths.entries()) {
      const before = model.paced.length;
      scriptTurn(model);
      const observed = await observe(path, bots, turn);
      results[path] = figures(observed, model.paced.slice(before), options.timeScale);
    }
  } finally {
    await bots.close();
  }
  return results;
}

export async function runFirstText(options: FirstTextOptions) {
  const tokenizer = qwenPaceTokenizer();
  const { promptTokensPerSecond, generationTokensPerSecond, timeScale } = options;
  const model = await startFakeModelServer({
    flavour: 'llama-server',
    declaredTools: true,
    pace: { promptTokensPerSecond, generationTokensPerSecond, timeScale, tokenizer },
  });
  const searxng = await startSearxngFake({ answer: () => searchResults });
  const paths = firstTextPaths.filter((path) => path === 'console' || options.platforms.some((platform) => path.startsWith(platform)));
  try {
    const off = await runMode('off', paths, options, model, searxng.url);
    const on = await runMode('on', paths, options, model, searxng.url);
    model.assertAllConsumed();
    const perPath = Object.fromEntries(
      paths.map((path) => {
        const [without, withStreaming] = [off[path], on[path]];
        if (!without || !withStreaming) throw new Error(`the ${path} path did not run in both rounds`);
        const { finalText: finalOff, ...baseline } = without;
        const { finalText: finalOn, ...streaming } = withStreaming;
        const afterToken = streaming.firstVisibleAfterFirstToken?.ms;
        return [
          path,
          {
            streamingOff: baseline,
            streamingOn: streaming,
            finalTextIdentical: finalOff === finalOn && finalOff !== '',
            answerKept: finalOff.includes(answer.split('\n')[0] ?? answer),
            finalChars: Array.from(finalOff).length,
            // Judged at the box's own speed only: scaled back, the platform's share would be overstated.
            met: timeScale === 1 ? afterToken !== undefined && afterToken <= goalAfterFirstTokenMs && finalOff === finalOn : null,
          },
        ];
      }),
    );
    return {
      model: { promptTokensPerSecond, generationTokensPerSecond, timeScale, tokenizer: tokenizerName(), answerTokens: tokenizer.answer(answer).length },
      definitions,
      streamPlatforms: streamingModes,
      goal: { firstVisibleAfterFirstTokenMs: goalAfterFirstTokenMs, finalTextIdentical: true },
      paths: perPath,
      met: timeScale === 1 ? Object.values(perPath).every((path) => path.met === true) : null,
    };
  } finally {
    await searxng.close();
    await model.close();
  }
}
