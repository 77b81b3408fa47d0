import type { TextCompleter } from '../../../agent/model/index.js';
import type { ToolContext } from '../../../agent/tools/tool.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Language, ProgressEvent } from '../../../src/shared/types.js';

// A ToolContext for search tests: fixed clock (5 March 2026, Bangkok = BE 2569), recorded progress.

export const fixedNow = new Date('2026-03-05T03:00:00Z');

export interface TestToolContext extends ToolContext {
  progressEvents: ProgressEvent[];
}

export function testToolContext(complete: TextCompleter, options: { language?: Language; signal?: AbortSignal; now?: Date } = {}): TestToolContext {
  const progressEvents: ProgressEvent[] = [];
  return {
    conversationKey: 'console:test',
    spaceKey: 'console:test',
    boundKnowledgeBaseIds: [],
    images: [],
    readImageText: () => Promise.resolve({ ok: false, failure: { code: 'unavailable', detail: 'no images in search tests' } }),
    showImageToModel: () => Promise.resolve(false),
    language: options.language ?? 'th',
    dataDir: '/nonexistent',
    secrets: [],
    signal: options.signal ?? new AbortController().signal,
    log: silentLogger(),
    complete,
    progress: (event) => progressEvents.push(event),
    now: () => options.now ?? fixedNow,
    turnState: new Map(),
    progressEvents,
  };
}
