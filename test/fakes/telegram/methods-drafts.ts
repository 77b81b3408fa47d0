import { badRequest } from './api-error.js';
import { messageText } from './formatted-text.js';
import type { MethodHandler } from './method-context.js';
import { optionalInteger, requiredChatId } from './params.js';

// sendMessageDraft (Bot API 9.x): a private chat's ephemeral preview of a message being written, animated between
// drafts of the same non-zero draft_id; the text has sendMessage's rules (1–4096 after parsing, parse_mode checked).
// It stores no message and returns true. The sentences of the two refusals below are this fake's own wording: the
// Bot API documents the rules, not the descriptions.

export const draftsOnlyInPrivateChats = 'sendMessageDraft can be used only in private chats';
export const draftIdZero = 'draft_id must be non-zero';

export const draftMethods: Record<string, MethodHandler> = {
  sendMessageDraft: (params, { state }) => {
    const chat = state.resolveChat(requiredChatId(params));
    if (chat.type !== 'private') throw badRequest(draftsOnlyInPrivateChats);
    const draftId = optionalInteger(params, 'draft_id');
    if (draftId === undefined) throw badRequest('draft_id is not specified');
    if (draftId === 0) throw badRequest(draftIdZero);
    const parsed = messageText(params);
    const threadId = optionalInteger(params, 'message_thread_id');
    state.drafts.push({ chatId: chat.id, draftId, text: parsed.text, entities: parsed.entities, ...(threadId === undefined ? {} : { threadId }) });
    return true;
  },
};
