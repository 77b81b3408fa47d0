import type { Language, ProgressEvent, Reply, TurnImage, TurnRecord, TurnStep } from './types.js';

// The contract between the message pipeline (src/pipeline/) and the agent (agent/): one question in, one reply and
// its record out. The pipeline knows the agent only through this, as it knows adapters through channel.ts; the
// composition root (src/app.ts) hands it the agent.

/** One question for the agent: who asks where, with what images and group context. */
export interface TurnInput {
  conversationKey: string;
  spaceKey: string;
  question: string;
  /** Shown to the model in group chats only. */
  speakerName?: string;
  images: TurnImage[];
  /**
   * The language of the bot's own words in this turn (its system prompt, notes, the language step's default): a
   * space's /settings language, or the question's own under "follow". Absent: BOT_LANGUAGE.
   */
  language?: Language;
  /**
   * The space chose `language` (/settings language th|en): the answer is in it even to a question in another
   * language, unless the user asks for another language or a translation. Absent or false: the answer follows the
   * question as it always has.
   */
  languageFixed?: boolean;
  /**
   * A space's extra instructions for the persona (/settings instructions): already bounded, DLP-scanned and free of
   * source markers. They go into the system prompt after the bot's own rules, so each space's prompt stays
   * byte-identical from turn to turn (the server's prompt cache) and the guards still run after the model.
   */
  spaceInstructions?: string;
  /** Recent unaddressed messages of a group, already bounded and neutralized; sent with this question only. */
  chatContext?: string;
  /**
   * The platform message this turn answers. A turn run again after a crash (its answer was never stored) neither
   * sees nor duplicates the exchange the cut-off run may have written to the history.
   */
  turnId?: string;
  /** Aborting it cancels the turn: the model request in flight is aborted, the reply says so, history is untouched. */
  signal?: AbortSignal;
  progress?: (event: ProgressEvent) => void;
  /** Told when each step starts (a model call, a tool by name): what a status line shows. */
  onStep?: (step: TurnStep) => void;
  /**
   * The answer while it is written, guard-safe (agent/streaming/): each call is the whole text that may be shown
   * so far; '' withdraws what was shown (the step turned into tool calls, or was cut). Never text a guard would
   * change: the final reply starts with the last preview, unless the DLP or a cut replaced the answer.
   */
  onPreview?: (text: string) => void;
}

/** The turn's answer (not yet through the outbound DLP) and its record (metrics, logs). */
export interface TurnOutcome {
  record: TurnRecord;
  reply: Reply;
}

/** Runs one turn. Expected outcomes are values; only a model-server failure or a cancel throws. */
export interface TurnRunner {
  runTurn(input: TurnInput): Promise<TurnOutcome>;
}
