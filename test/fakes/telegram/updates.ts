import type { Chat, Message, MessageEntity, PhotoSize, Update, User } from 'telegraf/types';
import { detectEntities } from './entities.js';

// Builders of realistic incoming updates, shaped as the Bot API sends them: photos smallest to largest with the
// text only in `caption`/`caption_entities`, entities detected with UTF-16 offsets, replies one level deep.

/** An update before the fake numbers it (pushUpdate assigns update_id when it is missing). */
export type NewUpdate = Omit<Update.MessageUpdate, 'update_id'> & { update_id?: number };

interface MessageBase {
  chat: Chat;
  from: User;
  messageId?: number;
  /** Unix seconds; a fixed default keeps runs identical. */
  date?: number;
  replyTo?: Message;
  updateId?: number;
}

let lastMessageId = 1000;
// Now, as Telegram would date a message it delivers at once (an older one is answered as late: src/pipeline/late-answer.ts).
const defaultDate = () => Math.floor(Date.now() / 1000);

export function user(id: number, first_name: string, username?: string): User {
  return { id, is_bot: false, first_name, ...(username === undefined ? {} : { username }), language_code: 'th' };
}

export function privateChat(of: User): Chat {
  return { id: of.id, type: 'private', first_name: of.first_name, ...(of.username === undefined ? {} : { username: of.username }) };
}

export function groupChat(id: number, title: string, type: 'group' | 'supergroup' = 'supergroup'): Chat {
  return type === 'group' ? { id, type, title } : { id, type, title };
}

function base(options: MessageBase): Record<string, unknown> {
  lastMessageId += 1;
  const fields: Record<string, unknown> = {
    message_id: options.messageId ?? lastMessageId,
    from: options.from,
    chat: options.chat,
    date: options.date ?? defaultDate(),
  };
  if (options.replyTo) {
    const { reply_to_message: _nested, ...repliedTo } = options.replyTo as Message & { reply_to_message?: unknown };
    fields.reply_to_message = repliedTo;
  }
  return fields;
}

function wrap(options: MessageBase, message: Record<string, unknown>): NewUpdate {
  const update: NewUpdate = { message: message as unknown as Update.MessageUpdate['message'] };
  if (options.updateId !== undefined) update.update_id = options.updateId;
  return update;
}

/** Given entities, or the ones the server would detect; omitted when there are none, as Telegram omits them. */
function entitiesField(name: 'entities' | 'caption_entities', text: string, given: MessageEntity[] | undefined): Record<string, unknown> {
  const entities = given ?? detectEntities(text);
  return entities.length > 0 ? { [name]: entities } : {};
}

export function textMessageUpdate(options: MessageBase & { text: string; entities?: MessageEntity[] }): NewUpdate {
  return wrap(options, { ...base(options), text: options.text, ...entitiesField('entities', options.text, options.entities) });
}

interface CaptionOptions {
  caption?: string;
  caption_entities?: MessageEntity[];
  media_group_id?: string;
}

function captionFields(options: CaptionOptions): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (options.media_group_id !== undefined) fields.media_group_id = options.media_group_id;
  if (options.caption !== undefined)
    Object.assign(fields, { caption: options.caption }, entitiesField('caption_entities', options.caption, options.caption_entities));
  return fields;
}

/** Photo sizes as Telegram makes them from one upload: thumbnails first, the largest last. */
export function photoSizes(fileIdPrefix: string, largest = { width: 1280, height: 960, file_size: 120_000 }): PhotoSize[] {
  const scales = [90 / largest.width, 320 / largest.width, 800 / largest.width, 1];
  return scales
    .filter((scale) => scale <= 1)
    .map((scale, index) => ({
      file_id: `${fileIdPrefix}_${index}`,
      file_unique_id: `${fileIdPrefix}_u${index}`,
      width: Math.round(largest.width * scale),
      height: Math.round(largest.height * scale),
      file_size: Math.max(1, Math.round(largest.file_size * scale * scale)),
    }));
}

export function photoUpdate(options: MessageBase & CaptionOptions & { sizes?: PhotoSize[] }): NewUpdate {
  const photo = options.sizes ?? photoSizes(`AgACAgUAAxkBAAI${String(lastMessageId + 1)}`);
  return wrap(options, { ...base(options), photo, ...captionFields(options) });
}

export function documentUpdate(options: MessageBase & CaptionOptions & { fileName: string; mimeType?: string; fileId?: string; fileSize?: number }): NewUpdate {
  const fields = base(options);
  const fileId = options.fileId ?? `BQACAgUAAxkBAAI${String(fields.message_id)}`;
  const document = {
    file_name: options.fileName,
    ...(options.mimeType === undefined ? {} : { mime_type: options.mimeType }),
    file_id: fileId,
    file_unique_id: `${fileId}_u`,
    file_size: options.fileSize ?? 1024,
  };
  return wrap(options, { ...fields, document, ...captionFields(options) });
}

/** A service message: members joined (delivered even in privacy mode). */
export function membersJoinedUpdate(options: MessageBase & { members: User[] }): NewUpdate {
  return wrap(options, { ...base(options), new_chat_members: options.members });
}
