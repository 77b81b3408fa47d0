import type { RequestBody } from './model-server.js';

/** A chat message as the fake model server recorded it. */
export interface RecordedMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown;
  tool_call_id?: string;
}

/** The `messages` of a recorded chat request (empty when absent). */
export function messagesOf(body: RequestBody | undefined): RecordedMessage[] {
  return Array.isArray(body?.messages) ? (body.messages as RecordedMessage[]) : [];
}

/** The content of the newest user message of a recorded chat request (what the model read as the question). */
export function newestUserContent(body: RequestBody | undefined): unknown {
  return messagesOf(body)
    .filter((message) => message.role === 'user')
    .at(-1)?.content;
}
