#!/usr/bin/env node
// A stand-in for llama-server that pm2 runs as the `model` app through LLAMA_SERVER_BIN, the switch a user sets:
// it gets llama-server's arguments (-m, --host, --port, -c, -np, --jinja) and answers the endpoints the bot uses
// (/health, /v1/models, /props, streaming /v1/chat/completions) on loopback. Plain JavaScript with a shebang: pm2 runs
// it with interpreter 'none', exactly like the real binary.
//
// Every answer is the same Thai sentence; a `#<digits>` tag in the question is repeated in the answer so a test can
// tell which question an answer belongs to. A question with `[hold]` is left unanswered the first time its tag is
// seen (the socket stays open), so a test can kill the bot during a model call. GET /fake/stats counts both.
import { createServer } from 'node:http';

const argumentValue = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 && index + 1 < process.argv.length ? process.argv[index + 1] : fallback;
};
const port = Number(argumentValue('--port', '8080'));
const host = argumentValue('--host', '127.0.0.1');
const modelId = 'fake-llama';
const answer = 'ได้รับข้อความแล้วค่ะ';
const stats = { chatRequests: 0, held: 0 };
const heldTags = new Set();

/** The text of the last user message: a string or OpenAI content parts. */
function lastUserText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  const user = messages.filter((message) => message?.role === 'user').at(-1);
  if (typeof user?.content === 'string') return user.content;
  if (Array.isArray(user?.content)) return user.content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join(' ');
  return '';
}

/** `#123` in the question (bounded: at most 9 digits, looked for in the first 10,000 characters). */
function tagOf(text) {
  return /#\d{1,9}/.exec(text.slice(0, 10_000))?.[0];
}

const sendJson = (response, status, body) => response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
const chunk = (id, delta, finishReason) => ({
  id,
  object: 'chat.completion.chunk',
  created: Math.floor(Date.now() / 1000),
  model: modelId,
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});
const sse = (value) => `data: ${JSON.stringify(value)}\n\n`;

function chat(body, response) {
  stats.chatRequests += 1;
  const question = lastUserText(body);
  const tag = tagOf(question);
  if (question.includes('[hold]') && tag && !heldTags.has(tag)) {
    heldTags.add(tag);
    stats.held += 1;
    return; // never answered: the bot is killed while it waits
  }
  const text = tag ? `${answer} (${tag})` : answer;
  const id = `chatcmpl-${stats.chatRequests}`;
  if (body?.stream !== true) {
    return sendJson(response, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: modelId,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(sse(chunk(id, { role: 'assistant', content: '' }, null)));
  response.write(sse(chunk(id, { content: text }, null)));
  response.write(sse(chunk(id, {}, 'stop')));
  response.end('data: [DONE]\n\n');
}

const server = createServer((request, response) => {
  const parts = [];
  let size = 0;
  request.on('data', (part) => {
    size += part.length;
    if (size <= 5_000_000) parts.push(part);
  });
  request.on('end', () => {
    const key = `${request.method} ${(request.url ?? '/').split('?')[0]}`;
    if (key === 'GET /health') return sendJson(response, 200, { status: 'ok' });
    if (key === 'GET /v1/models') return sendJson(response, 200, { object: 'list', data: [{ id: modelId, object: 'model', owned_by: 'llamacpp' }] });
    if (key === 'GET /props') return sendJson(response, 200, { model_path: `/models/${modelId}.gguf`, modalities: { vision: false }, chat_template: '' });
    if (key === 'GET /fake/stats') return sendJson(response, 200, stats);
    if (key === 'POST /v1/chat/completions') {
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        return sendJson(response, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
      }
      return chat(body, response);
    }
    sendJson(response, 404, { error: { message: 'File Not Found', type: 'not_found_error' } });
  });
});
server.listen(port, host, () => process.stdout.write(`fake llama-server listening on ${host}:${port}\n`));
