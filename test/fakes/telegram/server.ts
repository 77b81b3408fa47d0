import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { BotCommand, BotCommandScope, Chat, Message, Update } from 'telegraf/types';
import { fake as fakeTokens } from '../../support/fake-tokens.js';
import { BotApiError, tooManyRequests, type ApiErrorBody } from './api-error.js';
import { CallLog, type CallPredicate, type TelegramCall } from './call-log.js';
import type { MethodContext, MethodHandler } from './method-context.js';
import { botMethods, commandsKey } from './methods-bot.js';
import { chatMethods } from './methods-chats.js';
import { draftMethods } from './methods-drafts.js';
import { mediaMethods } from './methods-media.js';
import { messageMethods } from './methods-messages.js';
import { parseParams, readBody } from './multipart.js';
import { botReceives } from './privacy-filter.js';
import { type BotProfile, FakeTelegramState, type MemberStatus, type SentDraft, type StoredFile, type WebhookState } from './state.js';
import { UpdateQueue } from './update-queue.js';

// A fake Telegram Bot API server on 127.0.0.1 for telegraf (`telegram: { apiRoot: fake.url }`): `/bot<token>/<method>`
// with JSON, form and multipart bodies, `/file/bot<token>/<path>` downloads, the real envelopes and status codes,
// switchable failures, and a call log.

export interface FakeTelegramOptions {
  /** Defaults to a generated, token-shaped value. */
  token?: string;
  bot?: BotProfile;
  /** Chats the bot already knows; chats of pushed updates are added as they come. */
  chats?: Chat[];
  members?: { chatId: number; userId: number; status: MemberStatus }[];
  /** Group privacy mode on: group messages are filtered as Telegram filters them (see privacy-filter.ts). */
  privacyMode?: boolean;
  firstUpdateId?: number;
}

/** Any Update, with update_id optional (the fake numbers it). */
export type PushedUpdate = Update extends infer Each ? (Each extends Update ? Omit<Each, 'update_id'> & { update_id?: number } : never) : never;

export interface FakeTelegram {
  /** The apiRoot to give telegraf. */
  url: string;
  token: string;
  bot: FakeTelegramState['bot'];
  /**
   * Queues an update for getUpdates; its chat, sender and message become known. Undefined when Telegram would
   * not send it to this bot (privacy mode, another bot's group message).
   */
  pushUpdate<Pushed extends PushedUpdate>(update: Pushed): (Pushed & { update_id: number }) | undefined;
  /** Makes an update's chat, sender and message known without queueing it (for `bot.handleUpdate`). */
  rememberUpdate(update: Update): void;
  addChat(chat: Chat): void;
  /** Upgrades a group: sends to `from` then fail with 400 and `migrate_to_chat_id` (push the service messages yourself). */
  migrateChat(from: number, to: Chat): void;
  addFile(fileId: string, bytes: Buffer, options?: { size?: number; path?: string; uniqueId?: string }): StoredFile;
  setMember(chatId: number, userId: number, status: MemberStatus): void;
  /** The next `times` calls of `method` fail with this Bot API error. */
  failNext(method: string, error: ApiErrorBody, times?: number): void;
  /** The next `times` calls of `method` (e.g. editMessageText) answer 429 with this retry_after, as a flooded chat does. */
  rateLimitNext(method: string, retryAfterSeconds: number, times?: number): void;
  /** The next `times` calls of `method` lose their connection: the socket is destroyed before any answer. */
  disconnectNext(method: string, times?: number): void;
  /**
   * After `skip` more calls of `method` pass, the next one is recorded but not answered until `releaseHeld()` (or
   * until its connection closes, e.g. the bot was killed): a send in flight.
   */
  holdNext(method: string, skip?: number): void;
  releaseHeld(): void;
  calls: readonly TelegramCall[];
  callsOf(method: string): TelegramCall[];
  waitForCall(method: string, predicate?: CallPredicate): Promise<TelegramCall>;
  /** Messages the bot sent (as they are now, after edits), optionally of one chat. */
  sentMessages(chatId?: number): Message[];
  /** A user (or an admin) deletes a message from the chat. */
  deleteMessage(chatId: number, messageId: number): void;
  /** Drafts the bot streamed (sendMessageDraft), in order, optionally of one chat. */
  drafts(chatId?: number): SentDraft[];
  webhook(): WebhookState;
  /** The command menu set for a scope (default: `{ type: 'default' }`) and language. */
  commands(scope?: BotCommandScope, languageCode?: string): BotCommand[] | undefined;
  pendingUpdates(): number;
  /** Answers held polls with [] and closes. Stop telegraf first, or its next poll finds the port closed. */
  close(): Promise<void>;
}

const handlers: Record<string, MethodHandler> = { ...botMethods, ...messageMethods, ...draftMethods, ...mediaMethods, ...chatMethods };
const handlersByLowerName = new Map(Object.entries(handlers).map(([name, handler]) => [name.toLowerCase(), { name, handler }]));
const botPath = /^\/bot([^/]{1,200})\/([A-Za-z0-9_]{0,64})$/;
const filePath = /^\/file\/bot([^/]{1,200})\/(.{1,500})$/;

function writeJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function writeError(response: ServerResponse, error: ApiErrorBody): void {
  writeJson(response, error.error_code, { ok: false, ...error });
}

export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = options.token ?? fakeTokens.telegramBot();
  const state = new FakeTelegramState(options.bot ?? {}, options.privacyMode ?? false);
  for (const chat of options.chats ?? []) state.addChat(chat);
  for (const member of options.members ?? []) state.setMember(member.chatId, member.userId, member.status);
  const updates = new UpdateQueue(options.firstUpdateId ?? 100_000_001);
  const log = new CallLog();
  const failures = new Map<string, ApiErrorBody[]>();
  const disconnects = new Map<string, number>();
  const holds = new Map<string, number>();
  const held = new Set<() => void>();
  const sockets = new Set<Socket>();
  const inFlight = new Set<Promise<void>>();

  /** True when the call was held and its connection closed before a release. */
  const holdIfAsked = async (method: string, call: TelegramCall, signal: AbortSignal): Promise<boolean> => {
    const countdown = holds.get(method);
    if (countdown === undefined) return false;
    if (countdown > 0) {
      holds.set(method, countdown - 1);
      return false;
    }
    holds.delete(method);
    log.announce(call);
    await new Promise<void>((resolve) => {
      const release = (): void => {
        held.delete(release);
        resolve();
      };
      held.add(release);
      signal.addEventListener('abort', release, { once: true });
    });
    if (signal.aborted) call.outcome = { ok: false, disconnected: true };
    return signal.aborted;
  };

  const serveFile = (response: ServerResponse, path: string): void => {
    const file = [...state.files.values()].find((stored) => stored.path === decodeURIComponent(path));
    if (!file) return writeError(response, { error_code: 404, description: 'Not Found' });
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes.length });
    response.end(file.bytes);
  };

  const callMethod = async (request: IncomingMessage, response: ServerResponse, url: URL, methodName: string): Promise<void> => {
    const found = handlersByLowerName.get(methodName.toLowerCase());
    if (!found) return writeError(response, { error_code: 404, description: 'Not Found' });
    const body = await readBody(request);
    const call = log.record(found.name, {});
    try {
      call.params = await parseParams(url, request.headers['content-type'] ?? '', body);
      const disconnectsLeft = disconnects.get(found.name) ?? 0;
      if (disconnectsLeft > 0) {
        disconnects.set(found.name, disconnectsLeft - 1);
        call.outcome = { ok: false, disconnected: true };
        log.announce(call);
        request.socket.destroy();
        return;
      }
      const failure = failures.get(found.name)?.shift();
      if (failure) throw new BotApiError(failure);
      const abort = new AbortController();
      response.on('close', () => abort.abort());
      if (await holdIfAsked(found.name, call, abort.signal)) return;
      const context: MethodContext = { state, updates, signal: abort.signal };
      const pending = Promise.resolve(found.handler(call.params, context));
      log.announce(call);
      const result = await pending;
      call.outcome = { ok: true, result };
      writeJson(response, 200, { ok: true, result });
    } catch (error) {
      if (!(error instanceof BotApiError)) throw error;
      call.outcome = { ok: false, error: error.body };
      log.announce(call);
      writeError(response, error.body);
    }
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = botPath.exec(url.pathname);
    const file = filePath.exec(url.pathname);
    const givenToken = method?.[1] ?? file?.[1];
    if (givenToken === undefined) return writeError(response, { error_code: 404, description: 'Not Found' });
    if (givenToken !== token) return writeError(response, { error_code: 401, description: 'Unauthorized' });
    if (file?.[2] !== undefined) return serveFile(response, file[2]);
    const work = callMethod(request, response, url, method?.[2] ?? '').catch((error: unknown) => {
      if (!response.headersSent) writeJson(response, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` });
    });
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const remember = (update: Update): void => {
    for (const message of Object.values(update)) {
      if (typeof message === 'object' && message !== null && 'message_id' in message && 'chat' in message) state.rememberMessage(message as Message);
    }
  };

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    bot: state.bot,
    pushUpdate: (update) => {
      const complete = { ...update, update_id: update.update_id ?? 0 } as Update;
      remember(complete);
      if (!botReceives(complete, state)) return undefined;
      return updates.push(update) as typeof update & { update_id: number };
    },
    rememberUpdate: remember,
    addChat: (chat) => state.addChat(chat),
    migrateChat: (from, to) => state.migrate(from, to),
    addFile: (fileId, bytes, fileOptions) => state.addFile(fileId, bytes, fileOptions),
    setMember: (chatId, userId, status) => state.setMember(chatId, userId, status),
    failNext: (method, error, times = 1) => failures.set(method, [...(failures.get(method) ?? []), ...Array.from({ length: times }, () => error)]),
    rateLimitNext: (method, retryAfterSeconds, times = 1) =>
      failures.set(method, [...(failures.get(method) ?? []), ...Array.from({ length: times }, () => tooManyRequests(retryAfterSeconds))]),
    disconnectNext: (method, times = 1) => disconnects.set(method, (disconnects.get(method) ?? 0) + times),
    holdNext: (method, skip = 0) => holds.set(method, skip),
    releaseHeld: () => [...held].forEach((release) => release()),
    calls: log.calls,
    callsOf: (method) => log.callsOf(method),
    waitForCall: (method, predicate) => log.waitFor(method, predicate),
    sentMessages: (chatId) => state.sent.filter((message) => chatId === undefined || message.chat.id === chatId),
    deleteMessage: (chatId, messageId) => state.deleteMessage(chatId, messageId),
    drafts: (chatId) => state.drafts.filter((draft) => chatId === undefined || draft.chatId === chatId),
    webhook: () => state.webhook,
    commands: (scope, languageCode) => state.commands.get(commandsKey({ scope, language_code: languageCode })),
    pendingUpdates: () => updates.pendingCount(),
    close: async () => {
      updates.close();
      [...held].forEach((release) => release());
      await Promise.all(inFlight);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
