import { z } from 'zod';
import { trimTrailingSlashes } from '../shared/trailing-slashes.js';

// OpenAI-compatible embeddings (`POST {baseUrl}/embeddings`): llama-server --embeddings, Ollama, vLLM, LM Studio.
// Plain fetch with `encoding_format: "float"`: the OpenAI SDK asks for base64, which not every local server
// implements.

export interface EmbeddingsOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  /** Inputs per request. */
  batchSize?: number;
}

export type EmbeddingsResult = { ok: true; vectors: Float32Array[] } | { ok: false; reason: string };

export interface EmbeddingsClient {
  /** One unit-length vector per input, in input order. */
  embed(inputs: readonly string[], signal?: AbortSignal): Promise<EmbeddingsResult>;
}

const responseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative().optional() })),
});

/** Scaled to unit length so cosine similarity is a dot product; an all-zero vector stays zero. */
export function normalizeVector(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let squares = 0;
  for (const value of vector) squares += value * value;
  const length = Math.sqrt(squares);
  if (length > 0) for (let index = 0; index < vector.length; index += 1) vector[index] = (vector[index] ?? 0) / length;
  return vector;
}

export function createEmbeddingsClient(options: EmbeddingsOptions): EmbeddingsClient {
  const url = `${trimTrailingSlashes(options.baseUrl)}/embeddings`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const batchSize = options.batchSize ?? 32;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function embedBatch(inputs: readonly string[], signal?: AbortSignal): Promise<EmbeddingsResult> {
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: options.model, input: inputs, encoding_format: 'float' }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      return { ok: false, reason: timeout.aborted ? `timeout after ${timeoutMs} ms` : `unreachable: ${String(error)}` };
    }
    const body = await response.text().catch(() => '');
    if (!response.ok) return { ok: false, reason: `HTTP ${response.status}: ${body.slice(0, 200)}` };
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return { ok: false, reason: 'response is not JSON' };
    }
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success || parsed.data.data.length !== inputs.length) return { ok: false, reason: 'response is not an embeddings list for every input' };
    const ordered = [...parsed.data.data].sort((left, right) => (left.index ?? 0) - (right.index ?? 0));
    const vectors = (parsed.data.data.every((item) => item.index !== undefined) ? ordered : parsed.data.data).map((item) => normalizeVector(item.embedding));
    const dimensions = vectors[0]?.length ?? 0;
    if (dimensions === 0 || vectors.some((vector) => vector.length !== dimensions)) return { ok: false, reason: 'vectors of differing or zero length' };
    return { ok: true, vectors };
  }

  return {
    async embed(inputs, signal) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < inputs.length; start += batchSize) {
        const batch = await embedBatch(inputs.slice(start, start + batchSize), signal);
        if (!batch.ok) return batch;
        if (vectors[0] && batch.vectors[0] && vectors[0].length !== batch.vectors[0].length)
          return { ok: false, reason: 'vector length changed between batches' };
        vectors.push(...batch.vectors);
      }
      return { ok: true, vectors };
    },
  };
}
