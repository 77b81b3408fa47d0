// The fake Telegram Bot API for tests that drive real telegraf:
//   const fake = await startFakeTelegram({ chats: [chat] });
//   const bot = new Telegraf(fake.token, { telegram: { apiRoot: fake.url } });
// Polling: `bot.launch()`, `fake.pushUpdate(textMessageUpdate(…))`; at the end `bot.stop()`, await the launch
// promise, then `fake.close()`. Without polling: `fake.rememberUpdate(update)` then `bot.handleUpdate(update)`.
// As on Telegram, a chat must be known (options.chats or a pushed/remembered update) and a replied-to message
// must exist, or the call fails with the real 400.

export { botBlockedByUser, tooManyRequests, type ApiErrorBody } from './api-error.js';
export type { CallOutcome, CallPredicate, TelegramCall } from './call-log.js';
export { detectEntities, entityText, mentionEntity } from './entities.js';
export { parseHtml } from './html-entities-check.js';
export { parseMarkdownV2 } from './markdown-v2-check.js';
export { isUploadedFile, type UploadedFile } from './params.js';
export { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions, type PushedUpdate } from './server.js';
export type { BotProfile, MemberStatus, SentDraft, WebhookState } from './state.js';
export {
  documentUpdate,
  groupChat,
  mediaUpdate,
  membersJoinedUpdate,
  photoSizes,
  photoUpdate,
  privateChat,
  textMessageUpdate,
  user,
  type MediaKind,
  type NewUpdate,
} from './updates.js';
