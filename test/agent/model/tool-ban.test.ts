import { afterEach, describe, expect, it } from 'vitest';
import type { ServerKind } from '../../../agent/model/fingerprint.js';
import { startFakeModelServer, type FakeModelServer, type Flavour } from '../../fakes/model-server.js';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { clientOfKind } from '../../support/model-client.js';

// Calls that must not call tools keep the tools for the prompt prefix and forbid calls per server
// (docs/platforms.md §7.1).

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const searchTool = {
  type: 'function' as const,
  function: { name: 'web_search', description: 'Search the web', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
};
const system = { role: 'system' as const, content: 'You are Saeng.' };
const question = { role: 'user' as const, content: 'ราคาทองวันนี้' };

async function clientFor(flavour: Flavour, server: ServerKind | undefined) {
  fake = await startFakeModelServer({ flavour });
  return { fake, model: clientOfKind(fake, server) };
}

describe('a call with the tools barred', () => {
  it.each<[Flavour, ServerKind | undefined, string | undefined, boolean]>([
    ['llama-server', 'llama-server', 'none', false],
    ['vllm', 'vllm', 'none', false],
    ['lmstudio', 'lmstudio', 'none', false],
    ['ollama', 'ollama', undefined, true],
    ['generic', 'generic', 'none', true],
    ['generic', undefined, 'none', true],
  ])('on %s (detected %s): tool_choice %s, instruction %s', async (flavour, server, toolChoice, instruction) => {
    const { fake, model } = await clientFor(flavour, server);
    fake.script({ text: 'ตอบ' });
    await model.call({ messages: [system, question], tools: [searchTool], toolsBarred: true });
    const [body] = fake.chatRequests;
    expect(body?.tools).toEqual([searchTool]);
    expect(body?.tool_choice).toBe(toolChoice);
    expect(String(messagesOf(body).at(-1)?.content).includes('do not call any tool')).toBe(instruction);
  });

  it('a call with tools allowed sends no tool_choice', async () => {
    const { fake, model } = await clientFor('llama-server', 'llama-server');
    fake.script({ text: 'ตอบ' });
    await model.call({ messages: [system, question], tools: [searchTool] });
    expect(fake.chatRequests[0]).not.toHaveProperty('tool_choice');
  });
});

describe('a completion inside a turn', () => {
  it('sends the turn prefix unchanged and moves its own system text into one appended user message', async () => {
    const { fake, model } = await clientFor('llama-server', 'llama-server');
    fake.script({ text: '1: YES' });
    const text = await model.complete({
      system: 'Judge the results.',
      messages: [{ role: 'user', content: 'Results: 1. ทอง' }],
      prefix: { messages: [system, question], tools: [searchTool] },
    });
    expect(text).toBe('1: YES');
    const [body] = fake.chatRequests;
    expect(messagesOf(body)).toEqual([system, question, { role: 'user', content: 'Judge the results.\n\nResults: 1. ทอง' }]);
    expect(body?.tools).toEqual([searchTool]);
    expect(body?.tool_choice).toBe('none');
  });

  it('on Ollama a call that comes anyway is no answer: the text counts', async () => {
    const { fake, model } = await clientFor('ollama', 'ollama');
    fake.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'ทอง' } }] });
    const text = await model.complete({ messages: [{ role: 'user', content: 'x' }], prefix: { messages: [system, question], tools: [searchTool] } });
    expect(text).toBe('');
    expect(fake.chatRequests[0]).not.toHaveProperty('tool_choice');
  });

  it('alone (the /research command) keeps its own system message and sends no tools', async () => {
    const { fake, model } = await clientFor('llama-server', 'llama-server');
    fake.script({ text: 'ok' });
    await model.complete({ system: 'Judge.', messages: [{ role: 'user', content: 'x' }] });
    const [body] = fake.chatRequests;
    expect(messagesOf(body)[0]).toEqual({ role: 'system', content: 'Judge.' });
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('tool_choice');
  });
});
