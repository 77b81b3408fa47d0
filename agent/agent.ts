import { pick, type Localized } from '../src/shared/i18n.js';
import type { ImageReader } from '../src/shared/image-reading.js';
import { logFailure, type Logger } from '../src/shared/log.js';
import { loggedModelFigures, type ModelFigures } from '../src/shared/model-figures.js';
import type { Citation, Language, ModelCapabilities, RagMode } from '../src/shared/types.js';
import { withoutPassages, type ConversationHistory, type SentPassages } from './history.js';
import { ModelError, modelErrorMessage, type CapabilitySource, type ModelClient } from './model/index.js';
import { buildDateLine, buildSystemPrompt, buildToolDefinitions, buildUserContent, historyMessages, sentQuestion } from './prompt.js';
import { attachedImagesLine, imageTextUpFront } from './images-up-front.js';
import { executeTurn } from './turn.js';
import { TurnImages } from './turn-images.js';
import { failedRecord } from './turn-record.js';
import { cancelledOutcome } from './turn-cancel.js';
import type { AgentRuntime, TurnRequest } from './turn-request.js';
import type { AnyTool } from './tools/tool.js';
import { untilAborted } from '../src/shared/until-aborted.js';
import type { TurnInput, TurnOutcome, TurnRunner } from '../src/shared/turn-runner.js';

/** The agent's view of knowledge bases (the store lives in src/knowledge; the root adapts it). */
export interface KnowledgeAccess {
  boundKnowledgeBaseIds(conversationKey: string): Promise<readonly string[]>;
  /**
   * Retrieved passages for the newest user message when the model cannot call tools; those already in
   * `alreadySent` (passage blocks the history still re-sends) are named rather than repeated.
   */
  naiveContext(
    conversationKey: string,
    question: string,
    language: Language,
    alreadySent: readonly string[],
  ): Promise<{ text: string; citations: Citation[] } | null>;
}

export interface AgentSettings {
  botName: string;
  language: Language;
  timeZone: string;
  maxSteps: number;
  dataDir: string;
  /** Exact values of Saeng's own secrets: the DLP blocks them verbatim. */
  secrets: readonly string[];
}

export interface AgentDependencies {
  model: ModelClient;
  /** Tools in a stable order; the `tools` array is serialized once from it. */
  tools: readonly AnyTool[];
  /** Policy paragraphs for the system prompt in tools mode (e.g. the knowledge-base policy). */
  toolPolicies: readonly Localized[];
  capabilities: CapabilitySource;
  history: ConversationHistory;
  knowledge?: KnowledgeAccess;
  /** OCR and vision-ready copies of a turn's images; without it images are neither read nor shown. */
  images?: ImageReader;
  settings: AgentSettings;
  log: Logger;
  now?: () => Date;
}

/** The space-specific parts of a system prompt (TurnInput's language, languageFixed and spaceInstructions). */
export interface SpacePrompt {
  language: Language;
  languageFixed?: boolean;
  spaceInstructions?: string;
}

/**
 * System prompts kept built: one per capability set and space setting, so thousands of groups with their own
 * instructions cannot grow it without bound. The oldest goes first; a rebuilt prompt has the same bytes.
 */
export const maxCachedSystemPrompts = 64;

export class Agent implements TurnRunner {
  private readonly runtime: AgentRuntime;
  private readonly systemPrompts = new Map<string, string>();
  private readonly now: () => Date;

  constructor(private readonly dependencies: AgentDependencies) {
    const { settings } = dependencies;
    this.runtime = {
      model: dependencies.model,
      tools: new Map(dependencies.tools.map((tool) => [tool.name, tool])),
      toolDefinitions: buildToolDefinitions(dependencies.tools),
      maxSteps: settings.maxSteps,
      dataDir: settings.dataDir,
      secrets: settings.secrets,
      log: dependencies.log,
    };
    this.now = dependencies.now ?? (() => new Date());
  }

  /**
   * Byte-identical on every call for the same capabilities and space settings (the server's prompt cache); without
   * `space`, BOT_LANGUAGE and no space settings.
   */
  systemPrompt(capabilities: ModelCapabilities, space?: SpacePrompt): string {
    const language = space?.language ?? this.dependencies.settings.language;
    const languageFixed = space?.languageFixed ?? false;
    const spaceInstructions = space?.spaceInstructions ?? '';
    // The instructions last: they may hold any character, and nothing follows them in the key.
    const key = `${capabilities.tools}:${capabilities.vision}:${language}:${languageFixed}:${spaceInstructions}`;
    let prompt = this.systemPrompts.get(key);
    if (prompt === undefined) {
      const { botName } = this.dependencies.settings;
      const toolPolicies = this.dependencies.toolPolicies.map((policy) => pick(policy, language));
      prompt = buildSystemPrompt({ botName, language, capabilities, toolPolicies, languageFixed, spaceInstructions });
      const oldest = this.systemPrompts.keys().next();
      if (this.systemPrompts.size >= maxCachedSystemPrompts && !oldest.done) this.systemPrompts.delete(oldest.value);
    } else {
      this.systemPrompts.delete(key); // re-inserted below: the spaces in use stay, the idle ones go first
    }
    this.systemPrompts.set(key, prompt);
    return prompt;
  }

  /** How many system prompts are kept built (at most maxCachedSystemPrompts). */
  cachedSystemPrompts(): number {
    return this.systemPrompts.size;
  }

  async ragMode(capabilities: ModelCapabilities, conversationKey: string): Promise<RagMode> {
    return this.ragFor(capabilities, await this.boundKnowledgeBaseIds(conversationKey));
  }

  private async boundKnowledgeBaseIds(conversationKey: string): Promise<readonly string[]> {
    return (await this.dependencies.knowledge?.boundKnowledgeBaseIds(conversationKey)) ?? [];
  }

  private ragFor(capabilities: ModelCapabilities, bound: readonly string[]): RagMode {
    if (bound.length === 0) return 'none';
    return capabilities.tools && this.runtime.tools.has('query_knowledge') ? 'agentic' : 'naive';
  }

  /** Never throws: a failing model server becomes a short localized reply, and the history stays as it was. */
  async runTurn(input: TurnInput): Promise<TurnOutcome> {
    const started = performance.now();
    let capabilities: ModelCapabilities = { tools: false, vision: false };
    // Summed over every call of the turn (a retry without tools too): a failed or cancelled turn reports them as well.
    const figures: ModelFigures = {};
    try {
      // Detection may make a probe call on the first turn: a cancelled turn stops waiting for it (it still finishes).
      capabilities = await untilAborted(this.dependencies.capabilities.current(), input.signal);
      try {
        return await this.turnWith(input, capabilities, figures);
      } catch (error) {
        if (!(error instanceof ModelError) || error.kind !== 'tools-unsupported' || !capabilities.tools) throw error;
        // The server refused tools after all: re-detect next time, and answer this one without tools.
        this.dependencies.log.warn({ conversation: input.conversationKey }, 'model refused tools; answering without tools');
        await this.dependencies.capabilities.forget();
        capabilities = { ...capabilities, tools: false };
        return await this.turnWith(input, capabilities, figures);
      }
    } catch (error) {
      const language = this.languageOf(input);
      if (input.signal?.aborted) {
        this.dependencies.log.info({ conversation: input.conversationKey, ...loggedModelFigures(figures) }, 'turn cancelled');
        return cancelledOutcome(input, language, capabilities, started, figures);
      }
      const kind = error instanceof ModelError ? error.kind : 'unexpected';
      // A server's error body may echo the prompt: kind and status at error level, the detail only at debug.
      logFailure(this.dependencies.log, 'error', { conversation: input.conversationKey, kind, ...loggedModelFigures(figures) }, 'turn failed', error);
      const text = modelErrorMessage(error, language);
      const record = failedRecord(input, language, capabilities, text, figures);
      record.totalMs = Math.round(performance.now() - started);
      return { record, reply: { text, files: [] } };
    }
  }

  /** The language of the bot's own words in this turn: the space's, else BOT_LANGUAGE. */
  private languageOf(input: TurnInput): Language {
    return input.language ?? this.dependencies.settings.language;
  }

  private async turnWith(input: TurnInput, capabilities: ModelCapabilities, figures: ModelFigures): Promise<TurnOutcome> {
    const { history, log } = this.dependencies;
    const { request, stored } = await this.buildRequest(input, capabilities);
    request.modelFigures = figures;
    const outcome = await executeTurn(request, this.runtime);
    const { record } = outcome;
    const blocked = record.guardEvents.some((event) => event.guard === 'dlp' && event.action === 'block');
    // Cancelled after the last model call (during the guards): still nothing is stored.
    input.signal?.throwIfAborted();
    if (!blocked) await history.append(input.conversationKey, { ...stored, answer: record.finalText, turnId: input.turnId });
    log.info(
      {
        conversation: input.conversationKey,
        rag: record.rag,
        capabilities,
        steps: record.steps,
        // A name the model made up is its text: only our own tools are named.
        toolCalls: record.toolCalls.map((call) => ({ name: this.runtime.tools.has(call.name) ? call.name : 'unknown-tool', ok: call.ok, ms: call.ms })),
        guards: record.guardEvents.filter((event) => event.action !== 'pass').map((event) => `${event.guard}:${event.action}`),
        stopReason: record.stopReason,
        modelMs: Math.round(record.modelMs),
        // The server's own figures, summed: how much of the prompt came from its cache (numbers only).
        ...loggedModelFigures(record.modelFigures),
        totalMs: record.totalMs,
      },
      'turn',
    );
    return outcome;
  }

  /** This turn's data; `stored` is the part of the user message that history keeps (the passages for a few turns). */
  private async buildRequest(
    input: TurnInput,
    capabilities: ModelCapabilities,
  ): Promise<{ request: TurnRequest; stored: { question: string; passages?: SentPassages } }> {
    const { settings, knowledge, history } = this.dependencies;
    const language = this.languageOf(input);
    const languageFixed = input.languageFixed ?? false;
    const now = this.now();
    const dateLine = buildDateLine(now, settings.timeZone, language);
    const storedContent = buildUserContent({ dateLine, speakerName: input.speakerName, question: input.question, language });
    // Read once per turn: the RAG mode and the tools' scope must agree.
    const boundKnowledgeBaseIds = await this.boundKnowledgeBaseIds(input.conversationKey);
    const rag = this.ragFor(capabilities, boundKnowledgeBaseIds);
    const loaded = (await history.load(input.conversationKey)).filter((pair) => input.turnId === undefined || pair.turnId !== input.turnId);
    // Kept passages are re-sent only while the conversation still gets passages (not after its KBs were unbound).
    const pairs = rag === 'naive' ? loaded : loaded.map(withoutPassages);
    const earlierPassages = pairs.flatMap((pair) => (pair.passages ? [pair.passages] : []));
    // Passages come right after the question and are stored with it, so this request stays a byte prefix of the
    // next; chat context and image text follow (never stored). All of them back figures like tool results, and
    // the passages still in the history can be cited like this turn's.
    let userContent = storedContent;
    const initialCitations: Citation[] = [];
    const contextPassages: string[] = earlierPassages.map((passages) => passages.text);
    let passages: SentPassages | undefined;
    if (rag === 'naive' && knowledge) {
      passages = (await knowledge.naiveContext(input.conversationKey, input.question, language, contextPassages)) ?? undefined;
      if (passages) {
        userContent = `${userContent}\n\n${passages.text}`;
        contextPassages.push(passages.text);
      }
    }
    for (const citation of [...(passages?.citations ?? []), ...earlierPassages.flatMap((earlier) => earlier.citations)])
      if (!initialCitations.some((known) => known.label === citation.label)) initialCitations.push(citation);
    if (input.chatContext) {
      userContent = `${userContent}\n\n${input.chatContext}`;
      contextPassages.push(input.chatContext);
    }
    const signal = input.signal ?? new AbortController().signal;
    const progress = input.progress ?? (() => undefined);
    const onStep = input.onStep ?? (() => undefined);
    const turnImages = new TurnImages(input.images, this.dependencies.images, capabilities.vision, signal);
    const questionImages = await turnImages.forQuestion();
    const imageList = attachedImagesLine(turnImages, capabilities, language);
    if (imageList) userContent = `${userContent}\n\n${imageList}`;
    const imageText = await imageTextUpFront(turnImages, capabilities, language);
    if (imageText) {
      // After the question like the passages: the stored part stays a prefix, and the text backs figures.
      userContent = `${userContent}\n\n${imageText}`;
      contextPassages.push(imageText);
    }
    const request: TurnRequest = {
      conversationKey: input.conversationKey,
      spaceKey: input.spaceKey,
      question: input.question,
      language,
      languageFixed,
      dateLine,
      userContent,
      images: input.images,
      turnImages,
      questionImages,
      history: historyMessages(pairs),
      systemPrompt: this.systemPrompt(capabilities, { language, languageFixed, spaceInstructions: input.spaceInstructions }),
      capabilities,
      rag,
      contextPassages,
      earlierTurns: pairs.flatMap((pair) => [sentQuestion(pair), pair.answer]),
      initialCitations,
      boundKnowledgeBaseIds,
      signal,
      progress,
      onStep,
      ...(input.onPreview ? { onPreview: input.onPreview } : {}),
      now: () => now,
    };
    return { request, stored: passages ? { question: storedContent, passages } : { question: storedContent } };
  }
}
