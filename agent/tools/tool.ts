import type { z } from 'zod';
import type { Logger } from '../../src/shared/log.js';
import type { OcrResult } from '../../src/shared/image-reading.js';
import type { Citation, Language, OutboundFile, ProgressEvent, TurnImage } from '../../src/shared/types.js';
import type { TextCompleter } from '../model/index.js';

/**
 * What a tool may know about the turn. Who the user is and what they may read comes from here,
 * never from model-supplied arguments.
 */
export interface ToolContext {
  conversationKey: string;
  spaceKey: string;
  /** Knowledge bases bound to this conversation: the only ones a tool may read. */
  boundKnowledgeBaseIds: readonly string[];
  /** Images attached to this turn (whether or not the model can see them). */
  images: readonly TurnImage[];
  /** OCR text of image `index` (0-based) of this turn, read once per turn. Never throws. */
  readImageText(index: number): Promise<OcrResult>;
  /** Shows image `index` to the model on its next call; false without vision or when it was shown already. */
  showImageToModel(index: number): Promise<boolean>;
  language: Language;
  dataDir: string;
  /** Saeng's own configured secrets: a file the model writes may not carry them, whole or in pieces. */
  secrets: readonly string[];
  signal: AbortSignal;
  log: Logger;
  complete: TextCompleter;
  progress(event: ProgressEvent): void;
  /** The turn's own clock (tests fix it). */
  now(): Date;
  /** Scratch space that lives for this turn only (e.g. "the first search block of the turn was sent"). */
  turnState: Map<string, unknown>;
}

export interface ToolResult {
  ok: boolean;
  /** What the model reads back. */
  content: string;
  citations?: Citation[];
  files?: OutboundFile[];
}

export interface Tool<Input = unknown> {
  name: string;
  description: string;
  input: z.ZodType<Input>;
  execute(input: Input, context: ToolContext): Promise<ToolResult>;
}

/** A tool whose input type is erased, so tools of different inputs share one registry. */
export type AnyTool = Tool<unknown>;

/** Declares a tool with a typed input and returns it registry-ready (input is validated by its schema first). */
export function defineTool<Input>(tool: Tool<Input>): AnyTool {
  return tool as unknown as AnyTool;
}
