import type { ServerResponse } from 'node:http';
import { sseData } from './model-server-wire.js';

// A model server that ignores max_tokens: it streams numbered sentences (never the same line twice, so the
// repetition monitor does not stop it) until the client closes the connection — bounded here too, at `maxChars`.

export interface EndlessStep {
  /** The sentence repeated with a running number. */
  sentence: string;
  /** Into the reasoning channel (`reasoning_content`), a model thinking forever. */
  reasoning?: boolean;
  /** Characters per chunk's sentence batch (default: one sentence a chunk). */
  sentencesPerChunk?: number;
  /** The fake's own bound (default 2,000,000 characters). */
  maxChars?: number;
  /** Pause between chunks (default: none, a yield to the event loop only). */
  delayMs?: number;
}

/** Streams until the client disconnects or `maxChars` is reached; resolves with the characters sent. */
export async function streamEndlessly(
  step: EndlessStep,
  response: ServerResponse,
  chunk: (delta: Record<string, unknown>, finish: string | null) => unknown,
): Promise<number> {
  const maxChars = step.maxChars ?? 2_000_000;
  const field = step.reasoning ? 'reasoning_content' : 'content';
  let sent = 0;
  let number = 0;
  response.write(sseData(chunk({ role: 'assistant', content: '' }, null)));
  while (sent < maxChars && !response.destroyed && !response.writableEnded) {
    let text = '';
    for (let count = 0; count < (step.sentencesPerChunk ?? 1); count += 1) text += `${step.sentence} ${(number += 1)}. `;
    sent += text.length;
    const flushed = response.write(sseData(chunk({ [field]: text }, null)));
    // Back-pressure or a pause: either way the client's close is seen between chunks.
    if (!flushed) await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, step.delayMs ?? 0));
  }
  if (!response.destroyed && !response.writableEnded) response.end(sseData(chunk({}, 'length')) + 'data: [DONE]\n\n');
  return sent;
}
