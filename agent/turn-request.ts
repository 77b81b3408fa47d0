import type { ModelImage } from '../src/shared/image-reading.js';
import type { Logger } from '../src/shared/log.js';
import type { ModelFigures } from '../src/shared/model-figures.js';
import type { Citation, Language, ModelCapabilities, ProgressEvent, RagMode, TurnImage, TurnStep } from '../src/shared/types.js';
import type { ChatCompletionMessageParam, ChatCompletionTool, ModelClient } from './model/index.js';
import type { AnyTool } from './tools/tool.js';
import type { TurnImages } from './turn-images.js';

// What one turn is given: `TurnRequest` is this turn's data, `AgentRuntime` the agent's constants (built once).

export interface TurnRequest {
  conversationKey: string;
  spaceKey: string;
  question: string;
  /** The language of the bot's own words in this turn: TurnInput.language, else BOT_LANGUAGE. */
  language: Language;
  /** The space chose `language`: the language step expects it even for a question in another language. */
  languageFixed: boolean;
  dateLine: string;
  /** The newest user message as sent (date line, speaker, question, and naive-RAG passages when any). */
  userContent: string;
  /** Images attached to this turn; the model is shown them only when it has vision. */
  images: TurnImage[];
  /** How the model gets at each image of this turn (shown, read, or neither). */
  turnImages: TurnImages;
  /** The images shown with the question (vision models only): metadata gone, downscaled. */
  questionImages: ModelImage[];
  history: ChatCompletionMessageParam[];
  systemPrompt: string;
  capabilities: ModelCapabilities;
  rag: RagMode;
  /** Naive-RAG passages placed in the user message. */
  contextPassages: string[];
  /** Earlier questions and answers of this conversation (figures already checked in their own turns). */
  earlierTurns: string[];
  /** Citations of the naive-RAG passages. */
  initialCitations: Citation[];
  boundKnowledgeBaseIds: readonly string[];
  /** Aborted: the turn is cancelled (the model request in flight is aborted, nothing is stored). */
  signal: AbortSignal;
  progress(event: ProgressEvent): void;
  /** Told when each step starts (a model call, a tool), for a status line. */
  onStep(step: TurnStep): void;
  /** The answer while it is written, guard-safe (agent/streaming/); absent: nothing is shown before the reply. */
  onPreview?: (text: string) => void;
  /** The turn's clock (fixed for the whole turn). */
  now(): Date;
  /**
   * Where the server's figures of this turn's calls are summed (TurnRecord.modelFigures is this object), owned by
   * the caller so that a turn that fails or is cancelled still reports the calls it made.
   */
  modelFigures?: ModelFigures;
}

export interface AgentRuntime {
  model: ModelClient;
  tools: ReadonlyMap<string, AnyTool>;
  /** Every tool's definition, serialized once; offered only to a model that can call tools. */
  toolDefinitions: ChatCompletionTool[];
  maxSteps: number;
  dataDir: string;
  /** Exact values of Saeng's own secrets: the DLP blocks them verbatim. */
  secrets: readonly string[];
  log: Logger;
}
