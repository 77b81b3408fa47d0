import type { ChatMember, User } from 'telegraf/types';
import { badRequest } from './api-error.js';
import type { MethodHandler } from './method-context.js';
import { optionalInteger, requiredChatId, requiredString } from './params.js';
import type { FakeTelegramState, MemberStatus } from './state.js';

// getFile (the cloud Bot API serves at most 20 MB), getChat, getChatMember and getChatAdministrators.

const downloadLimitBytes = 20 * 1024 * 1024;

const administratorRights = {
  can_be_edited: false,
  is_anonymous: false,
  can_manage_chat: true,
  can_delete_messages: true,
  can_manage_video_chats: true,
  can_restrict_members: true,
  can_promote_members: false,
  can_change_info: true,
  can_invite_users: true,
  can_post_stories: false,
  can_edit_stories: false,
  can_delete_stories: false,
  can_pin_messages: true,
};

function memberObject(user: User, status: MemberStatus): ChatMember {
  if (status === 'administrator') return { status, user, ...administratorRights };
  if (status === 'creator') return { status, user, is_anonymous: false };
  if (status === 'kicked') return { status, user, until_date: 0 };
  if (status === 'restricted') return { status, user, is_member: true, until_date: 0 } as unknown as ChatMember;
  return { status, user };
}

function userOf(state: FakeTelegramState, userId: number): User {
  return state.users.get(userId) ?? { id: userId, is_bot: false, first_name: `User ${userId}` };
}

export const chatMethods: Record<string, MethodHandler> = {
  getFile: (params, { state }) => {
    const fileId = requiredString(params, 'file_id');
    const file = state.files.get(fileId);
    if (!file) throw badRequest('wrong file_id or the file is temporarily unavailable');
    if (file.size > downloadLimitBytes) throw badRequest('file is too big');
    return { file_id: file.fileId, file_unique_id: file.uniqueId, file_size: file.size, file_path: file.path };
  },

  getChat: (params, { state }) => state.resolveChat(requiredChatId(params)),

  getChatMember: (params, { state }) => {
    const chat = state.resolveChat(requiredChatId(params));
    const userId = optionalInteger(params, 'user_id');
    if (userId === undefined) throw badRequest('user_id is empty');
    return memberObject(userOf(state, userId), state.memberStatus(chat.id, userId));
  },

  getChatAdministrators: (params, { state }) => {
    const chat = state.resolveChat(requiredChatId(params));
    if (chat.type === 'private') throw badRequest('there are no administrators in the private chat');
    const administrators: ChatMember[] = [];
    for (const [key, status] of state.members) {
      const [chatId, userId] = key.split(':').map(Number);
      if (chatId === chat.id && userId !== undefined && (status === 'creator' || status === 'administrator')) {
        administrators.push(memberObject(userOf(state, userId), status));
      }
    }
    return administrators;
  },
};
