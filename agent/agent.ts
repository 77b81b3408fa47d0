import { pick, type Localized } from '../src/shared/i18n.js';
import type { Logger } from '../src/shared/log.js';
import type { Citation, Language, ModelCapabilities, ProgressEvent, RagMode, TurnImage, TurnRecord } from '../src/shared/types.js';
import type { ConversationHistory } from './history.js';
import { ModelError, type ChatCompletionTool, type ModelClient } from './model/types.js';
import { buildDateLine, buildSystemPrompt, buildToolDefinitions, buildUserContent, historyMessages } from './prompt.js';
import { modelErrorMessage } from './model/error-messages.js';
import { executeTurn, type TurnOutcome } from './turn.js';
import type { AnyTool } from './tools/tool.js';
import { describeError } from '../src/shared/describe-error.js';

/** What the agent needs to know about capabilities: the current verdict, and a way to re-detect. */
export interface CapabilitySource {
  current(): Promise<ModelCapabilities>;
  /** Called after a tool-related error so the next turn detects again. */
  forget(): Promise<void>;
}

/** The agent's view of knowledge bases (the store lives in src/knowledge; the root adapts it). */
export interface KnowledgeAccess {
  boundKnowledgeBaseIds(conversationKey: string): string[];
  /** Retrieved passages for the newest user message when the model cannot call tools. */
  naiveContext(conversationKey: string, question: string, language: Language): Promise<{ text: string; citations: Citation[] } | null>;
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
  settings: AgentSettings;
  log: Logger;
  now?: () => Date;
}

export interface TurnInput {
  conversationKey: string;
  spaceKey: string;
  question: string;
  /** Shown to the model in group chats only. */
  speakerName?: string;
  images: TurnImage[];
  signal?: AbortSignal;
  progress?: (event: ProgressEvent) => void;
}

const imagesNotRead: Localized = {
  th: '(โมเดลที่ใช้อยู่อ่านรูปภาพไม่ได้ จึงตอบจากข้อความอย่างเดียว)',
  en: '(The model in use cannot read images, so this answer is from the text only.)',
};

export class Agent {
  private readonly toolDefinitions: ChatCompletionTool[];
  private readonly toolsByName: ReadonlyMap<string, AnyTool>;
  private readonly systemPrompts = new Map<string, string>();
  private readonly now: () => Date;

  constructor(private readonly dependencies: AgentDependencies) {
    this.toolDefinitions = buildToolDefinitions(dependencies.tools);
    this.toolsByName = new Map(dependencies.tools.map((tool) => [tool.name, tool]));
    this.now = dependencies.now ?? (() => new Date());
  }

  /** Built once per capability set, then byte-identical on every call. */
  systemPrompt(capabilities: ModelCapabilities): string {
    const key = `${capabilities.tools}:${capabilities.vision}`;
    let prompt = this.systemPrompts.get(key);
    if (prompt === undefined) {
      const { botName, language } = this.dependencies.settings;
      const toolPolicies = this.dependencies.toolPolicies.map((policy) => pick(policy, language));
      prompt = buildSystemPrompt({ botName, language, capabilities, toolPolicies });
      this.systemPrompts.set(key, prompt);
    }
    return prompt;
  }

  ragMode(capabilities: ModelCapabilities, conversationKey: string): RagMode {
    return this.ragFor(capabilities, this.dependencies.knowledge?.boundKnowledgeBaseIds(conversationKey) ?? []);
  }

  private ragFor(capabilities: ModelCapabilities, bound: readonly string[]): RagMode {
    if (bound.length === 0) return 'none';
    return capabilities.tools && this.toolsByName.has('query_knowledge') ? 'agentic' : 'naive';
  }

  /** Never throws: a failing model server becomes a short localized reply, and the history stays as it was. */
  async runTurn(input: TurnInput): Promise<TurnOutcome> {
    const started = performance.now();
    let capabilities: ModelCapabilities = { tools: false, vision: false };
    try {
      capabilities = await this.dependencies.capabilities.current();
      try {
        return await this.turnWith(input, capabilities);
      } catch (error) {
        if (!(error instanceof ModelError) || error.kind !== 'tools-unsupported' || !capabilities.tools) throw error;
        // The server refused tools after all: re-detect next time, and answer this one without tools.
        this.dependencies.log.warn({ conversation: input.conversationKey }, 'model refused tools; answering without tools');
        await this.dependencies.capabilities.forget();
        capabilities = { ...capabilities, tools: false };
        return await this.turnWith(input, capabilities);
      }
    } catch (error) {
      const kind = error instanceof ModelError ? error.kind : 'unexpected';
      this.dependencies.log.error(
        { conversation: input.conversationKey, kind, error: describeError(error) },
        'turn failed',
      );
      const text = modelErrorMessage(error, this.dependencies.settings.language);
      const record = emptyRecord(input, this.dependencies.settings.language, capabilities, text);
      record.totalMs = Math.round(performance.now() - started);
      return { record, reply: { text, files: [] } };
    }
  }

  private async turnWith(input: TurnInput, capabilities: ModelCapabilities): Promise<TurnOutcome> {
    const { settings, knowledge, history, model, log } = this.dependencies;
    const language = settings.language;
    const now = this.now();
    const dateLine = buildDateLine(now, settings.timeZone, language);
    const storedContent = buildUserContent({ dateLine, speakerName: input.speakerName, question: input.question, language });
    const boundKnowledgeBaseIds = knowledge?.boundKnowledgeBaseIds(input.conversationKey) ?? [];
    const rag = this.ragFor(capabilities, boundKnowledgeBaseIds);
    let userContent = storedContent;
    const initialCitations: Citation[] = [];
    const contextPassages: string[] = [];
    if (rag === 'naive' && knowledge) {
      // Passages go after the question in the newest user message, so the stored part stays a byte prefix.
      const passages = await knowledge.naiveContext(input.conversationKey, input.question, language);
      if (passages) {
        userContent = `${storedContent}\n\n${passages.text}`;
        initialCitations.push(...passages.citations);
        contextPassages.push(passages.text);
      }
    }
    const pairs = await history.load(input.conversationKey);
    const outcome = await executeTurn({
      conversationKey: input.conversationKey,
      spaceKey: input.spaceKey,
      language,
      question: input.question,
      dateLine,
      userContent,
      images: capabilities.vision ? input.images : [],
      history: historyMessages(pairs),
      systemPrompt: this.systemPrompt(capabilities),
      toolDefinitions: capabilities.tools && this.toolDefinitions.length > 0 ? this.toolDefinitions : undefined,
      tools: this.toolsByName,
      capabilities,
      rag,
      contextPassages,
      earlierTurns: pairs.flatMap((pair) => [pair.question, pair.answer]),
      initialCitations,
      boundKnowledgeBaseIds,
      model,
      maxSteps: settings.maxSteps,
      dataDir: settings.dataDir,
      secrets: settings.secrets,
      log,
      signal: input.signal ?? new AbortController().signal,
      now: () => now,
      progress: input.progress ?? (() => undefined),
    });
    const { record } = outcome;
    if (input.images.length > 0 && !capabilities.vision) {
      // Say so rather than answer as if the picture had been seen.
      outcome.reply.text = `${pick(imagesNotRead, language)}\n\n${outcome.reply.text}`;
      record.guardEvents.push({ guard: 'vision', action: 'warn', reason: `${input.images.length} image(s) not shown: the model has no vision` });
    }
    const blocked = record.guardEvents.some((event) => event.guard === 'dlp' && event.action === 'block');
    if (!blocked) await history.append(input.conversationKey, storedContent, record.finalText);
    log.info(
      {
        conversation: input.conversationKey,
        rag,
        capabilities,
        steps: record.steps,
        toolCalls: record.toolCalls.map((call) => ({ name: call.name, ok: call.ok, ms: call.ms })),
        guards: record.guardEvents.filter((event) => event.action !== 'pass').map((event) => `${event.guard}:${event.action}`),
        stopReason: record.stopReason,
        modelMs: Math.round(record.modelMs),
        totalMs: record.totalMs,
      },
      'turn',
    );
    return outcome;
  }
}

function emptyRecord(input: TurnInput, language: Language, capabilities: ModelCapabilities, text: string): TurnRecord {
  return {
    conversationKey: input.conversationKey,
    language,
    question: input.question,
    dateLine: '',
    contextPassages: [],
    earlierTurns: [],
    images: [],
    toolCalls: [],
    drafts: [],
    finalText: text,
    citations: [],
    files: [],
    guardEvents: [],
    stopReason: 'model-error',
    rag: 'none',
    capabilities,
    steps: 0,
    modelMs: 0,
    totalMs: 0,
  };
}
