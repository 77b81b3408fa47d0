import { expect } from 'vitest';
import type { Flavour, RequestBody } from '../fakes/model-server.js';

/**
 * A request that must not call tools still carries the turn's tools (the prompt prefix stays the same bytes) and
 * forbids calls the way its server honours (docs/platforms.md §7.1): `tool_choice: "none"`, except on Ollama.
 */
export function expectToolsBarred(body: RequestBody | undefined, flavour: Flavour = 'llama-server'): void {
  expect(Array.isArray(body?.tools) && body.tools.length > 0).toBe(true);
  if (flavour === 'ollama') expect(body).not.toHaveProperty('tool_choice');
  else expect(body?.tool_choice).toBe('none');
}
