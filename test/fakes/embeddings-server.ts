import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

// A fake OpenAI-compatible embeddings server (`POST /v1/embeddings`) on 127.0.0.1 with a toy "model" that
// understands synonyms: texts sharing a concept get similar vectors even when they share no word, which is
// exactly what full-text search cannot do. It reproduces the failures the store must survive.

export type EmbeddingsMode =
  | 'ok'
  /** llama-server started without --embeddings: 501 with its OpenAI-shaped error body. */
  | 'not-supported'
  /** Ollama with a chat-only model: 400 `{"error": "…does not support embeddings"}`. */
  | 'model-cannot-embed'
  /** The connection is cut before any response (server crashed, proxy reset). */
  | 'reset'
  /** Never answers (the client's timeout must fire). */
  | 'hang'
  /** 200 with a body that is not an embeddings list. */
  | 'malformed'
  /** 200 with the items in reverse order; only `index` tells them apart. */
  | 'reversed';

export interface EmbeddingsRequestRecord {
  path: string;
  authorization: string | undefined;
  model: unknown;
  inputs: string[];
  encodingFormat: unknown;
}

export interface FakeEmbeddingsServer {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string;
  requests: EmbeddingsRequestRecord[];
  setMode(mode: EmbeddingsMode): void;
  close(): Promise<void>;
}

/** Concepts of the toy model; each one is a dimension. */
const concepts: readonly (readonly string[])[] = [
  ['คืนเงิน', 'เงินคืน', 'refund', 'money back', 'ชดเชย'],
  ['ลาพักร้อน', 'วันหยุดพักผ่อน', 'vacation', 'annual leave'],
  ['รหัสผ่าน', 'password', 'ลืมรหัส', 'เข้าสู่ระบบไม่ได้'],
  ['จัดส่ง', 'ส่งของ', 'shipping', 'delivery', 'พัสดุ'],
  ['ราคา', 'ค่าบริการ', 'price', 'cost', 'กี่บาท'],
];
const dimensions = 48;
const wordSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

function hashWord(word: string): number {
  let hash = 2166136261;
  for (const character of word) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16777619);
  return concepts.length + (Math.abs(hash) % (dimensions - concepts.length));
}

/** Strong weight on concepts, a little on the words themselves. */
export function toyEmbedding(text: string): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const lower = text.toLowerCase();
  concepts.forEach((synonyms, dimension) => {
    if (synonyms.some((synonym) => lower.includes(synonym))) vector[dimension] = (vector[dimension] ?? 0) + 3;
  });
  for (const { segment, isWordLike } of wordSegmenter.segment(lower)) {
    if (isWordLike) {
      const dimension = hashWord(segment);
      vector[dimension] = (vector[dimension] ?? 0) + 0.2;
    }
  }
  return vector;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const requestBody = z.object({ model: z.unknown(), input: z.union([z.string(), z.array(z.unknown())]), encoding_format: z.unknown() }).partial();

export async function startFakeEmbeddingsServer(initialMode: EmbeddingsMode = 'ok'): Promise<FakeEmbeddingsServer> {
  let mode = initialMode;
  const requests: EmbeddingsRequestRecord[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => void answer(request, response));
  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
      sendJson(response, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      sendJson(response, 400, { error: { code: 400, message: 'Invalid JSON', type: 'invalid_request_error' } });
      return;
    }
    const fields = requestBody.safeParse(body).data ?? {};
    const inputs = typeof fields.input === 'string' ? [fields.input] : (fields.input ?? []).filter((item): item is string => typeof item === 'string');
    requests.push({ path: request.url, authorization: request.headers.authorization, model: fields.model, inputs, encodingFormat: fields.encoding_format });
    switch (mode) {
      case 'not-supported':
        sendJson(response, 501, {
          error: { code: 501, message: 'This server does not support embeddings. Start it with `--embeddings`', type: 'not_supported_error' },
        });
        return;
      case 'model-cannot-embed':
        sendJson(response, 400, { error: `"${String(fields.model)}" does not support embeddings` });
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'hang':
        hanging.add(response);
        return;
      case 'malformed':
        sendJson(response, 200, { object: 'list', data: [{ object: 'embedding', embedding: 'not-a-vector', index: 0 }] });
        return;
      case 'ok':
      case 'reversed': {
        const data = inputs.map((input, index) => ({ object: 'embedding', index, embedding: toyEmbedding(input) }));
        if (mode === 'reversed') data.reverse();
        sendJson(response, 200, { object: 'list', model: fields.model, data, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
        return;
      }
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address: AddressInfo | string | null = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
