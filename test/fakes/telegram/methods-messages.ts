import type { Message, MessageEntity } from 'telegraf/types';
import { badRequest } from './api-error.js';
import { messageText } from './formatted-text.js';
import type { MethodHandler } from './method-context.js';
import { optionalInteger, optionalJson, optionalString, requiredChatId } from './params.js';
import { newBotMessage, nowSeconds, storeSent } from './outgoing-message.js';

// sendMessage, editMessageText and sendChatAction, with the server's checks and error sentences.

const chatActions = new Set([
  'typing',
  'upload_photo',
  'record_video',
  'upload_video',
  'record_voice',
  'upload_voice',
  'upload_document',
  'choose_sticker',
  'find_location',
  'record_video_note',
  'upload_video_note',
]);

export const notModified =
  'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message';

function withEntities(text: string, entities: MessageEntity[]): { text: string; entities?: MessageEntity[] } {
  return entities.length > 0 ? { text, entities } : { text };
}

export const messageMethods: Record<string, MethodHandler> = {
  sendMessage: (params, { state }) => {
    const parsed = messageText(params);
    const { base } = newBotMessage(params, state);
    return storeSent({ ...base, ...withEntities(parsed.text, parsed.entities) } as unknown as Message, state);
  },

  editMessageText: (params, { state }) => {
    if (optionalString(params, 'inline_message_id') !== undefined) throw badRequest('message to edit not found');
    const chat = state.resolveChat(requiredChatId(params));
    const messageId = optionalInteger(params, 'message_id');
    if (messageId === undefined) throw badRequest('message identifier is not specified');
    const message = state.findMessage(chat.id, messageId);
    if (!message) throw badRequest('message to edit not found');
    if (!('from' in message) || message.from?.id !== state.bot.id) throw badRequest("message can't be edited");
    if (!('text' in message)) throw badRequest('there is no text in the message to edit');
    const parsed = messageText(params);
    const markup = optionalJson(params, 'reply_markup');
    const sameMarkup = JSON.stringify(markup) === JSON.stringify('reply_markup' in message ? message.reply_markup : undefined);
    if (parsed.text === message.text && JSON.stringify(parsed.entities) === JSON.stringify(message.entities ?? []) && sameMarkup) {
      throw badRequest(notModified);
    }
    message.text = parsed.text;
    if (parsed.entities.length > 0) message.entities = parsed.entities;
    else delete message.entities;
    message.edit_date = nowSeconds();
    return message;
  },

  sendChatAction: (params, { state }) => {
    state.resolveChat(requiredChatId(params));
    if (!chatActions.has(optionalString(params, 'action') ?? '')) throw badRequest('wrong parameter action in request');
    return true;
  },
};
