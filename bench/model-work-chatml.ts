import { isRecord } from '../src/shared/is-record.js';

// One recorded chat request as llama-server renders it with Qwen3's chat template (ChatML): the tools in the system
// turn as `<tools>` JSON lines, assistant tool calls as `<tool_call>` JSON, tool results as `<tool_response>` inside
// a user turn, then the generation prompt. Written from the template's rules (tokenizer_config.json of Qwen3), so
// the prompt cache is judged on the bytes the server tokenizes, not on the request's JSON.

/** Where each part of the rendered prompt starts and ends: what a cache break is blamed on. */
export interface RenderedSegment {
  label: string;
  start: number;
  end: number;
}

export interface RenderedPrompt {
  text: string;
  segments: RenderedSegment[];
}

type Message = Record<string, unknown>;

const toolsPreamble =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const toolsClosing =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within ' +
  '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n';

/** Jinja's `tojson` as the template engines apply it: Python's json.dumps, `, ` and `: ` separators, UTF-8 kept. */
export function templateJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(templateJson).join(', ')}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${templateJson(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** A message's text: a string as is; content parts joined (an image as llama-server's media marker). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : isRecord(part) && part.type === 'image_url' ? '<__media__>' : ''))
    .join('\n');
}

const stripNewlines = (text: string) => text.replace(/^\n+|\n+$/g, '');
const isToolResponseText = (text: string) => text.startsWith('<tool_response>') && text.endsWith('</tool_response>');

/** The newest user message that is a real question (not tool output): earlier reasoning is dropped up to there. */
function lastQueryIndex(messages: Message[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user' && !isToolResponseText(contentText(message.content))) return index;
  }
  return messages.length - 1;
}

function renderToolCalls(toolCalls: unknown, content: string): string {
  if (!Array.isArray(toolCalls)) return '';
  return toolCalls
    .map((call: unknown, index) => {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : isRecord(call) ? call : {};
      const args = typeof fn.arguments === 'string' ? fn.arguments : templateJson(fn.arguments);
      const separator = index > 0 || content !== '' ? '\n' : '';
      return `${separator}<tool_call>\n{"name": "${String(fn.name ?? '')}", "arguments": ${args}}\n</tool_call>`;
    })
    .join('');
}

function renderAssistant(message: Message, afterLastQuery: boolean, isLast: boolean): string {
  let content = contentText(message.content);
  let reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : '';
  if (typeof message.reasoning_content !== 'string' && content.includes('</think>')) {
    const [before = ''] = content.split('</think>');
    reasoning = (before.replace(/\n+$/, '').split('<think>').at(-1) ?? '').replace(/^\n+/, '');
    content = (content.split('</think>').at(-1) ?? '').replace(/^\n+/, '');
  }
  // Thinking is kept only inside the current tool chain (after the newest real question), as the template does.
  const head =
    afterLastQuery && (isLast || reasoning !== '')
      ? `<|im_start|>assistant\n<think>\n${stripNewlines(reasoning)}\n</think>\n\n${content.replace(/^\n+/, '')}`
      : `<|im_start|>assistant\n${content}`;
  return `${head}${renderToolCalls(message.tool_calls, content)}<|im_end|>\n`;
}

/** Renders a chat-completions request body the way llama-server's Qwen3 template does, with the generation prompt. */
export function renderChatMl(body: Record<string, unknown>): RenderedPrompt {
  const messages = (Array.isArray(body.messages) ? body.messages : []).filter(isRecord);
  const tools = Array.isArray(body.tools) ? body.tools : [];
  const segments: RenderedSegment[] = [];
  let text = '';
  const push = (label: string, part: string) => {
    segments.push({ label, start: text.length, end: text.length + part.length });
    text += part;
  };

  const first = messages[0];
  const system = first?.role === 'system' ? contentText(first.content) : undefined;
  if (tools.length > 0) {
    push('system prompt', `<|im_start|>system\n${system === undefined ? '' : `${system}\n\n`}`);
    push('tools block', `${toolsPreamble}${tools.map((tool: unknown) => `\n${templateJson(tool)}`).join('')}${toolsClosing}`);
  } else if (system !== undefined) {
    push('system prompt', `<|im_start|>system\n${system}<|im_end|>\n`);
  }

  const queryIndex = lastQueryIndex(messages);
  messages.forEach((message, index) => {
    const label = `message ${index} (${String(message.role)})`;
    if (message.role === 'user' || (message.role === 'system' && index > 0)) {
      push(label, `<|im_start|>${message.role}\n${contentText(message.content)}<|im_end|>\n`);
    } else if (message.role === 'assistant') {
      push(label, renderAssistant(message, index > queryIndex, index === messages.length - 1));
    } else if (message.role === 'tool') {
      const opens = messages[index - 1]?.role !== 'tool';
      const closes = messages[index + 1]?.role !== 'tool';
      push(label, `${opens ? '<|im_start|>user' : ''}\n<tool_response>\n${contentText(message.content)}\n</tool_response>${closes ? '<|im_end|>\n' : ''}`);
    }
  });

  const kwargs = isRecord(body.chat_template_kwargs) ? body.chat_template_kwargs : {};
  push('generation prompt', `<|im_start|>assistant\n${kwargs.enable_thinking === false ? '<think>\n\n</think>\n\n' : ''}`);
  return { text, segments };
}
