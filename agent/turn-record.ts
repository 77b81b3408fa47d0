import type { ModelFigures } from '../src/shared/model-figures.js';
import type { Language, ModelCapabilities, TurnImage, TurnRecord } from '../src/shared/types.js';
import type { TurnRequest } from './turn-request.js';

// The record a turn fills in as it goes (guards are pure functions over it), and the one a failed turn returns.

export function startRecord(request: TurnRequest, images: TurnImage[]): TurnRecord {
  return {
    conversationKey: request.conversationKey,
    language: request.language,
    question: request.question,
    dateLine: request.dateLine,
    contextPassages: request.contextPassages,
    earlierTurns: request.earlierTurns,
    images,
    toolCalls: [],
    drafts: [],
    finalText: '',
    citations: [...request.initialCitations],
    files: [],
    guardEvents: [],
    stopReason: 'answer',
    rag: request.rag,
    capabilities: request.capabilities,
    steps: 0,
    modelMs: 0,
    modelFigures: request.modelFigures ?? {},
    totalMs: 0,
  };
}

/** A turn the model server failed: the localized error text, and the server's figures of the calls it made. */
export function failedRecord(
  turn: { conversationKey: string; question: string },
  language: Language,
  capabilities: ModelCapabilities,
  text: string,
  modelFigures: ModelFigures = {},
): TurnRecord {
  return {
    conversationKey: turn.conversationKey,
    language,
    question: turn.question,
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
    modelFigures,
    totalMs: 0,
  };
}
