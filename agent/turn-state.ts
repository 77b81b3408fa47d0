import type { ModelImage } from '../src/shared/image-reading.js';
import { addModelFigures } from '../src/shared/model-figures.js';
import type { TurnRecord, TurnStep } from '../src/shared/types.js';
import type { ChatCompletionMessageParam, ChatCompletionTool } from './model/index.js';
import { userAskedToRepeat } from './repeat-request.js';
import type { ToolContext } from './tools/tool.js';
import { startRecord } from './turn-record.js';
import { AnswerPreview } from './streaming/answer-preview.js';
import type { AgentRuntime, TurnRequest } from './turn-request.js';

// The working state of one turn: its record, the messages sent so far, and what its tools are handed.

export interface TurnState {
  readonly record: TurnRecord;
  readonly messages: ChatCompletionMessageParam[];
  readonly context: ToolContext;
  /** Images a tool queued for the next model call (vision models only). */
  readonly pendingImages: ModelImage[];
  /** Undefined when the model cannot call tools (never an empty array). */
  readonly offeredTools: ChatCompletionTool[] | undefined;
  readonly userAskedToRepeat: boolean;
  /** How many of `messages` the last model request sent: a tool's own model call goes after exactly those. */
  sentCount: number;
  /** Tells the caller a step has started (TurnRequest.onStep). */
  readonly reportStep: (step: TurnStep) => void;
  /** The answer shown while it is written; undefined when the caller shows nothing before the reply. */
  readonly preview: AnswerPreview | undefined;
  /** The space chose the turn's language (TurnRequest.languageFixed): the language step and the preview expect it. */
  readonly languageFixed: boolean;
}

export function startTurn(request: TurnRequest, runtime: AgentRuntime): TurnState {
  const shownImages = request.questionImages;
  const pendingImages: ModelImage[] = [];
  const offeredTools = request.capabilities.tools && runtime.toolDefinitions.length > 0 ? runtime.toolDefinitions : undefined;
  const context: ToolContext = {
    conversationKey: request.conversationKey,
    spaceKey: request.spaceKey,
    boundKnowledgeBaseIds: request.boundKnowledgeBaseIds,
    images: request.images,
    readImageText: (index) => request.turnImages.readText(index),
    showImageToModel: async (index) => {
      const image = await request.turnImages.show(index);
      if (image) pendingImages.push(image);
      return image !== undefined;
    },
    language: request.language,
    dataDir: runtime.dataDir,
    secrets: runtime.secrets,
    signal: request.signal,
    log: runtime.log,
    // The turn's last request as its prefix, so the server re-reads only the helper's message (docs/architecture.md,
    // "Turn loop and guard order"); the server's figures for it count in the turn's, as its prompt work is the turn's.
    complete: (completion) =>
      runtime.model.complete({
        ...completion,
        prefix: { messages: messages.slice(0, state.sentCount), tools: offeredTools },
        onFigures: (figures) => addModelFigures(state.record.modelFigures, figures),
      }),
    progress: request.progress,
    now: request.now,
    turnState: new Map(),
  };
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: request.systemPrompt },
    ...request.history,
    // Images of this turn (vision models only, downscaled, metadata gone) go with the question as data URIs.
    shownImages.length === 0
      ? { role: 'user', content: request.userContent }
      : { role: 'user', content: [{ type: 'text', text: request.userContent }, ...shownImages.map(imagePart)] },
  ];
  const record = startRecord(request, request.images);
  const state: TurnState = {
    record,
    messages,
    context,
    pendingImages,
    offeredTools,
    userAskedToRepeat: userAskedToRepeat(request.question),
    reportStep: request.onStep,
    sentCount: messages.length,
    preview: request.onPreview
      ? new AnswerPreview({
          record,
          languageFixed: request.languageFixed,
          secrets: runtime.secrets,
          unreadImages: () => request.turnImages.unread(),
          emit: request.onPreview,
        })
      : undefined,
    languageFixed: request.languageFixed,
  };
  return state;
}

export function imagePart(image: ModelImage): { type: 'image_url'; image_url: { url: string } } {
  return { type: 'image_url', image_url: { url: `data:${image.mime};base64,${Buffer.from(image.bytes).toString('base64')}` } };
}
