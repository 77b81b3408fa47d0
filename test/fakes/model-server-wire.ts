import type { IncomingMessage, ServerResponse } from 'node:http';

// The HTTP and SSE plumbing of the fake model server (model-server.ts): framing, JSON bodies, ids.

export function startSse(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

export function sseData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
}

/** Splits by code point so a Thai character or emoji is never cut in half. */
export function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const out: string[] = [];
  for (let start = 0; start < characters.length; start += size) out.push(characters.slice(start, start + size).join(''));
  return out;
}

export function randomId(): string {
  return Math.random().toString(36).slice(2, 11);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

export function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export async function readBody(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A scripted tool call's arguments as the JSON text a server streams. */
export function argumentText(call: { arguments: string | Record<string, unknown> }): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}
