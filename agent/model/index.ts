// The model client's one face: everything outside agent/model/ imports from here (docs/architecture.md, "Model
// client"). Servers, retries, stream accumulation and capability detection stay behind it.

export type {
  AssembledToolCall,
  CapabilitySource,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  CompletionRequest,
  ModelCallRequest,
  ModelCallResult,
  ModelClient,
  ModelErrorKind,
  OutputCut,
  OutputLimits,
  StreamDecision,
  TextCompleter,
} from './types.js';
export { ModelError } from './types.js';
export { createModelClient, type ModelClientOptions } from './client.js';
export { modelErrorMessage } from './error-messages.js';
export { parseToolArguments, type ParsedArguments } from './tool-arguments.js';
export { stripThinking } from './think-splitter.js';
export { DetectedCapabilities, type CapabilitySettings } from './capability-source.js';
export type { CapabilityReport, Override } from './capabilities.js';
