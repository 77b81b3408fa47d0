import type { ToolCallRecord, TurnRecord } from '../../src/shared/types.js';

/** A finished turn with defaults; tests override what they look at. */
export function turnRecord(overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    conversationKey: 'console:test',
    language: 'th',
    question: 'ราคาทองวันนี้เท่าไหร่',
    dateLine: 'วันพุธที่ 15 มกราคม พ.ศ. 2568 (2025-01-15) เวลา 14:30 น.',
    contextPassages: [],
    earlierTurns: [],
    images: [],
    toolCalls: [],
    drafts: [],
    finalText: '',
    citations: [],
    files: [],
    guardEvents: [],
    stopReason: 'answer',
    rag: 'agentic',
    capabilities: { tools: true, vision: false },
    steps: 1,
    modelMs: 10,
    modelFigures: {},
    totalMs: 12,
    ...overrides,
  };
}

export function toolCall(overrides: Partial<ToolCallRecord> & { name: string }): ToolCallRecord {
  return {
    id: `call_${overrides.name}`,
    args: {},
    argumentsText: '{}',
    result: '',
    ok: true,
    ms: 5,
    citations: [],
    files: [],
    ...overrides,
  };
}
