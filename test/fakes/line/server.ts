import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { webhook } from '@line/bot-sdk';
import type { FailureResponse } from './api-error.js';
import { CallLog, type CallPredicate, type LineCall } from './call-log.js';
import type { CallPattern } from '../common/call-pattern.js';
import { SwitchedFailures } from '../common/switched-failures.js';
import { handleApiRequest } from './http-handler.js';
import { lineUserId } from './ids.js';
import { chatRoutes } from './routes-chat.js';
import { messageRoutes } from './routes-messages.js';
import { webhookRoutes } from './routes-webhook.js';
import { FakeLineState, type BotProfile, type LoadingCall, type ReplyTokenRecord, type SentLineMessage, type UserProfile } from './state.js';
import { postSignedWebhook, type PostWebhookOptions, type WebhookAnswer } from './webhook-client.js';
import { EventBuilder } from './webhook-events.js';

// A fake LINE Messaging API on 127.0.0.1 for the real @line/bot-sdk 11: api.line.me and api-data.line.me on one
// port (give `url` as `baseURL` to both MessagingApiClient and MessagingApiBlobClient), LINE's error bodies and
// status codes, switchable failures, a call log, and LINE's side of webhooks (events with reply tokens, signed).

export interface GroupSpec {
  groupId: string;
  name?: string;
  members?: { userId: string; displayName: string }[];
}

export interface FakeLineOptions {
  /** Generated when left out (no credential-shaped literal in the repository). */
  channelAccessToken?: string;
  channelSecret?: string;
  bot?: Partial<BotProfile>;
  /** Push messages a month (one per recipient), or 'unlimited'. Default 200 (the free Communication plan). */
  quota?: number | 'unlimited';
  /** How long a reply token stays usable after its event was built. Default 60 000 ms. */
  replyTokenLifetimeMs?: number;
  /** The clock of reply tokens, retry keys and event timestamps (ms). Default Date.now. */
  clock?: () => number;
  users?: UserProfile[];
  groups?: GroupSpec[];
}

export interface FakeLine {
  /** `baseURL` for both SDK clients: `http://127.0.0.1:P`. */
  url: string;
  channelAccessToken: string;
  channelSecret: string;
  botUserId: string;
  bot: BotProfile;
  textEvent: EventBuilder['text'];
  imageEvent: EventBuilder['image'];
  fileEvent: EventBuilder['file'];
  stickerEvent: EventBuilder['sticker'];
  audioEvent: EventBuilder['audio'];
  videoEvent: EventBuilder['video'];
  joinEvent: EventBuilder['join'];
  memberJoinedEvent: EventBuilder['memberJoined'];
  followEvent: EventBuilder['follow'];
  redeliver: EventBuilder['redeliver'];
  /** `{ destination: botUserId, events }`. */
  webhookBody(...events: webhook.Event[]): webhook.CallbackRequest;
  /** POSTs a body (object or raw string) signed with the channel secret (or as `options` says) to the bot. */
  postWebhook(url: string, body: unknown, options?: PostWebhookOptions): Promise<WebhookAnswer>;
  addUser(profile: UserProfile): void;
  addGroupMember(groupId: string, userId: string, displayName: string): void;
  addRoomMember(roomId: string, userId: string, displayName: string): void;
  addContent(messageId: string, bytes: Buffer, contentType: string): void;
  replyToken(token: string): ReplyTokenRecord | undefined;
  /** The token's window has passed: replies with it get 400 "Invalid reply token". */
  expireReplyToken(token: string): void;
  /** Messages the bot sent (reply and push), in order, optionally to one user, group or room. */
  sentMessages(chatId?: string): SentLineMessage[];
  loadingCalls(chatId?: string): LoadingCall[];
  setQuota(quota: number | 'unlimited'): void;
  /** The webhook URL on file in the console and its "Use webhook" switch (`active`, default on). */
  setWebhookEndpoint(endpoint: string, active?: boolean): void;
  /** How long the webhook test delivery waits for the bot (default 2 s, as LINE). */
  setWebhookTestTimeout(ms: number): void;
  quotaUsage(): number;
  failNext(pattern: CallPattern, failure: FailureResponse, times?: number): void;
  /** The socket is destroyed before LINE does anything. */
  disconnectNext(pattern: CallPattern, times?: number): void;
  /** LINE does the work (message sent, token spent, retry key accepted), then the socket is destroyed. */
  loseResponseNext(pattern: CallPattern, times?: number): void;
  /** After `skip` more matching calls pass, the next is recorded but not answered until releaseHeld() (or its client goes away). */
  holdNext(pattern: CallPattern, skip?: number): void;
  releaseHeld(): void;
  calls: readonly LineCall[];
  callsOf(pattern: CallPattern): LineCall[];
  waitForCall(pattern: CallPattern, predicate?: CallPredicate): Promise<LineCall>;
  close(): Promise<void>;
}

export async function startFakeLine(options: FakeLineOptions = {}): Promise<FakeLine> {
  const clock = options.clock ?? Date.now;
  const channelAccessToken = options.channelAccessToken ?? `${randomBytes(129).toString('base64')}=`;
  const channelSecret = options.channelSecret ?? randomBytes(16).toString('hex');
  const bot: BotProfile = { userId: lineUserId('saeng-bot'), basicId: '@123saeng', displayName: 'แสง', ...options.bot };
  const state = new FakeLineState(bot, options.quota ?? 200, options.replyTokenLifetimeMs ?? 60_000, clock);
  for (const user of options.users ?? []) state.users.set(user.userId, user);
  for (const group of options.groups ?? []) {
    const chat = state.chatGroup('group', group.groupId);
    if (group.name !== undefined) chat.name = group.name;
    for (const member of group.members ?? []) chat.members.set(member.userId, member.displayName);
  }
  const log = new CallLog();
  const failures = new SwitchedFailures<FailureResponse>();
  const events = new EventBuilder(state);
  const routes = [...messageRoutes, ...chatRoutes, ...webhookRoutes];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    void handleApiRequest({ state, log, failures, routes, channelAccessToken, channelSecret }, request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Internal server error' }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    channelAccessToken,
    channelSecret,
    botUserId: bot.userId,
    bot,
    textEvent: (spec) => events.text(spec),
    imageEvent: (spec) => events.image(spec),
    fileEvent: (spec) => events.file(spec),
    stickerEvent: (spec) => events.sticker(spec),
    audioEvent: (spec) => events.audio(spec),
    videoEvent: (spec) => events.video(spec),
    joinEvent: (source) => events.join(source),
    memberJoinedEvent: (source, userIds) => events.memberJoined(source, userIds),
    followEvent: (userId, isUnblocked) => events.follow(userId, isUnblocked),
    redeliver: (event) => events.redeliver(event),
    webhookBody: (...list) => events.body(list),
    postWebhook: (url, body, postOptions) => postSignedWebhook(url, body, channelSecret, postOptions),
    addUser: (profile) => void state.users.set(profile.userId, profile),
    addGroupMember: (groupId, userId, displayName) => void state.chatGroup('group', groupId).members.set(userId, displayName),
    addRoomMember: (roomId, userId, displayName) => void state.chatGroup('room', roomId).members.set(userId, displayName),
    addContent: (messageId, bytes, contentType) => void state.contents.set(messageId, { bytes, contentType }),
    replyToken: (token) => state.replyTokens.get(token),
    expireReplyToken: (token) => {
      const record = state.replyTokens.get(token);
      if (!record) throw new Error('the fake issued no such reply token');
      record.expired = true;
    },
    sentMessages: (chatId) => state.sent.filter((message) => chatId === undefined || message.chatId === chatId),
    loadingCalls: (chatId) => state.loadingCalls.filter((call) => chatId === undefined || call.chatId === chatId),
    setQuota: (quota) => void (state.quota = quota),
    setWebhookEndpoint: (endpoint, active = true) => void Object.assign(state.webhook, { endpoint, active }),
    setWebhookTestTimeout: (ms) => void (state.webhook.testTimeoutMs = ms),
    quotaUsage: () => state.quotaUsage,
    failNext: (pattern, failure, times) => failures.failNext(pattern, failure, times),
    disconnectNext: (pattern, times) => failures.disconnectNext(pattern, times),
    loseResponseNext: (pattern, times) => failures.loseResponseNext(pattern, times),
    holdNext: (pattern, skip) => failures.holdNext(pattern, skip),
    releaseHeld: () => failures.releaseHeld(),
    calls: log.calls,
    callsOf: (pattern) => log.callsOf(pattern),
    waitForCall: (pattern, predicate) => log.waitFor(pattern, predicate),
    close: async () => {
      failures.releaseHeld();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
