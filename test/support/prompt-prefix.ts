import { expect } from 'vitest';
import type { Flavour, RequestBody } from '../fakes/model-server.js';
import { messagesOf } from '../fakes/recorded-messages.js';

// The prompt-cache rule on the wire (docs/architecture.md, "Turn loop and guard order").

/**
 * A request that must not call tools still carries the turn's tools (the prompt prefix stays the same bytes) and
 * forbids calls the way its server honours (docs/platforms.md §7.1): `tool_choice: "none"`, except on Ollama.
 */
export function expectToolsBarred(body: RequestBody | undefined, flavour: Flavour = 'llama-server'): void {
  expect(Array.isArray(body?.tools) && body.tools.length > 0).toBe(true);
  if (flavour === 'ollama') expect(body).not.toHaveProperty('tool_choice');
  else expect(body?.tool_choice).toBe('none');
}

const serialized = (value: unknown) => JSON.stringify(value ?? null);

/**
 * Every request of a turn sends the system message and tools of the first, byte for byte, and extends the turn's
 * latest streamed request: an internal (non-streamed) call appends to it and is itself never extended.
 */
export function expectSharedPrefix(requests: readonly RequestBody[]): void {
  const [first] = requests;
  expect(first).toBeDefined();
  let chain = messagesOf(first);
  for (const [index, body] of requests.entries()) {
    const messages = messagesOf(body);
    expect(serialized(messages[0]), `request ${index + 1}: system message`).toBe(serialized(messagesOf(first)[0]));
    expect(serialized(body.tools), `request ${index + 1}: tools`).toBe(serialized(first?.tools));
    expect(serialized(messages.slice(0, chain.length)), `request ${index + 1}: history`).toBe(serialized(chain));
    if (index > 0) expect(messages.length, `request ${index + 1}: appends`).toBeGreaterThan(chain.length);
    if (body.stream === true) chain = messages;
  }
}
