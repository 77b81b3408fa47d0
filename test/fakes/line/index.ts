// The fake LINE platform for tests that drive the real @line/bot-sdk 11:
//   const fake = await startFakeLine({ users: [{ userId, displayName: 'สมชาย' }] });
//   const client = new messagingApi.MessagingApiClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url });
//   const blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url });
//   const event = fake.textEvent({ source: userSource(userId), text: 'สวัสดี' });
//   await fake.postWebhook(botWebhookUrl, fake.webhookBody(event));   // signed with fake.channelSecret
//   await fake.waitForCall('POST /v2/bot/message/reply');             // then fake.sentMessages(userId)
// The SDK throws HTTPFetchError (status, statusText, headers: a fetch Headers, body: the raw response text).

export {
  internalServerError,
  lineErrors,
  LineApiError,
  monthlyLimitReached,
  rateLimited,
  type ErrorDetail,
  type FailureResponse,
  type LineErrorBody,
} from './api-error.js';
export type { CallOutcome, CallPredicate, LineCall } from './call-log.js';
export type { CallPattern } from '../common/call-pattern.js';
export { isChatId, isUserId, lineGroupId, lineRoomId, lineUserId } from './ids.js';
export { startFakeLine, type FakeLine, type FakeLineOptions, type GroupSpec } from './server.js';
export type { BotProfile, LoadingCall, ReplyTokenRecord, SentLineMessage, UserProfile } from './state.js';
export { signBody, type PostWebhookOptions, type WebhookAnswer } from './webhook-client.js';
export {
  chatIdOf,
  groupSource,
  roomSource,
  userSource,
  type AudioEvent,
  type FileEvent,
  type FileEventSpec,
  type ImageEvent,
  type ImageEventSpec,
  type MediaEventSpec,
  type MentionSpec,
  type StickerEvent,
  type StickerEventSpec,
  type TextEvent,
  type TextEventSpec,
  type VideoEvent,
} from './webhook-events.js';
