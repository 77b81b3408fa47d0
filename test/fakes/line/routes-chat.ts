import { lineErrors, requestBodyErrors, type ErrorDetail } from './api-error.js';
import { isUserId } from './ids.js';
import { requestRecord } from './message-validation.js';
import { ok, type Route, type RouteResult } from './router.js';
import type { ChatGroup, FakeLineState } from './state.js';

// Chats and people: the loading animation (1:1 chats only, 5–60 s in steps of 5, answered 202 `{}`), the bot's own
// info, user profiles, group/room member profiles, group summaries and member counts, and content users sent
// (served by api-data.line.me; here on the same port).

const loading: Route = {
  method: 'POST',
  template: '/v2/bot/chat/loading/start',
  handle: ({ state, body }) => {
    const request = requestRecord(body);
    const chatId = request.chatId;
    const seconds = request.loadingSeconds ?? 20;
    const errors: ErrorDetail[] = [];
    if (typeof chatId !== 'string' || chatId === '') errors.push({ message: 'May not be empty', property: 'chatId' });
    else if (!isUserId(chatId))
      errors.push({ message: 'Only user id is acceptable, please confirm if there are any group/room ids or illegal ids.', property: 'chatId' });
    if (typeof seconds !== 'number' || seconds < 5 || seconds > 60) errors.push({ message: 'Must be between 5 and 60', property: 'loadingSeconds' });
    if (typeof seconds !== 'number' || seconds % 5 !== 0) errors.push({ message: 'must be a multiple of five', property: 'loadingSeconds' });
    if (errors.length > 0) throw requestBodyErrors(errors);
    state.loadingCalls.push({ chatId: String(chatId), loadingSeconds: Number(seconds), at: state.clock() });
    return { status: 202, body: {} };
  },
};

const botInfo: Route = {
  method: 'GET',
  template: '/v2/bot/info',
  handle: ({ state }) => ok({ ...state.bot, chatMode: 'bot', markAsReadMode: 'auto' }),
};

const profile: Route = {
  method: 'GET',
  template: '/v2/bot/profile/:userId',
  handle: ({ state, params }) => {
    const found = state.users.get(params.userId ?? '');
    if (!found) throw lineErrors.notFound();
    return ok(found);
  },
};

function memberProfile(state: FakeLineState, chat: ChatGroup | undefined, userId: string): RouteResult {
  const displayName = chat?.members.get(userId);
  if (displayName === undefined) throw lineErrors.notFound();
  const pictureUrl = state.users.get(userId)?.pictureUrl;
  return ok({ displayName, userId, ...(pictureUrl ? { pictureUrl } : {}) });
}

const groupMember: Route = {
  method: 'GET',
  template: '/v2/bot/group/:groupId/member/:userId',
  handle: ({ state, params }) => memberProfile(state, state.groups.get(params.groupId ?? ''), params.userId ?? ''),
};

const roomMember: Route = {
  method: 'GET',
  template: '/v2/bot/room/:roomId/member/:userId',
  handle: ({ state, params }) => memberProfile(state, state.rooms.get(params.roomId ?? ''), params.userId ?? ''),
};

const groupSummary: Route = {
  method: 'GET',
  template: '/v2/bot/group/:groupId/summary',
  handle: ({ state, params }) => {
    const group = state.groups.get(params.groupId ?? '');
    if (!group) throw lineErrors.notFound();
    return ok({ groupId: group.id, groupName: group.name });
  },
};

const groupMembersCount: Route = {
  method: 'GET',
  template: '/v2/bot/group/:groupId/members/count',
  handle: ({ state, params }) => {
    const group = state.groups.get(params.groupId ?? '');
    if (!group) throw lineErrors.notFound();
    return ok({ count: group.members.size });
  },
};

function storedContent(state: FakeLineState, messageId: string): RouteResult {
  const stored = state.contents.get(messageId);
  if (!stored) throw lineErrors.notFound();
  return { status: 200, bytes: { data: stored.bytes, contentType: stored.contentType } };
}

const content: Route = {
  method: 'GET',
  template: '/v2/bot/message/:messageId/content',
  handle: ({ state, params }) => storedContent(state, params.messageId ?? ''),
};

const contentPreview: Route = {
  method: 'GET',
  template: '/v2/bot/message/:messageId/content/preview',
  handle: ({ state, params }) => storedContent(state, params.messageId ?? ''),
};

/** Video and audio are ready at once here: registered content is always `succeeded`. */
const transcoding: Route = {
  method: 'GET',
  template: '/v2/bot/message/:messageId/content/transcoding',
  handle: ({ state, params }) => {
    if (!state.contents.has(params.messageId ?? '')) throw lineErrors.notFound();
    return ok({ status: 'succeeded' });
  },
};

export const chatRoutes: Route[] = [loading, botInfo, profile, groupMember, roomMember, groupSummary, groupMembersCount, content, contentPreview, transcoding];
