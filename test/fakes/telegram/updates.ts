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

/** Media the bot cannot read, as the Bot API sends each (a sticker and a video note take no caption). */
export type MediaKind = 'voice' | 'audio' | 'video' | 'video_note' | 'animation' | 'sticker';

function mediaFields(kind: MediaKind, fileId: string): Record<string, unknown> {
  const file = { file_id: fileId, file_unique_id: `${fileId}_u` };
  switch (kind) {
    case 'voice':
      return { voice: { ...file, duration: 4, mime_type: 'audio/ogg', file_size: 9_120 } };
    case 'audio':
      return { audio: { ...file, duration: 187, performer: 'วงดนตรี', title: 'เพลง', file_name: 'song.mp3', mime_type: 'audio/mpeg', file_size: 3_010_000 } };
    case 'video':
      return { video: { ...file, width: 1280, height: 720, duration: 12, file_name: 'clip.mp4', mime_type: 'video/mp4', file_size: 2_400_000 } };
    case 'video_note':
      return { video_note: { ...file, length: 384, duration: 9, file_size: 610_000 } };
    case 'animation': {
      // For backward compatibility the Bot API sets `document` on an animation too.
      const animation = { ...file, width: 320, height: 240, duration: 3, file_name: 'funny.gif.mp4', mime_type: 'video/mp4', file_size: 180_000 };
      const { width: _width, height: _height, duration: _duration, ...document } = animation;
      return { animation, document };
    }
    case 'sticker':
      return {
        sticker: {
          ...file,
          type: 'regular',
          width: 512,
          height: 512,
          is_animated: false,
          is_video: false,
          emoji: '👍',
          set_name: 'ThaiCats',
          file_size: 24_000,
        },
      };
  }
}

export function mediaUpdate(options: MessageBase & CaptionOptions & { kind: MediaKind; fileId?: string }): NewUpdate {
  if (options.caption !== undefined && (options.kind === 'sticker' || options.kind === 'video_note')) throw new Error(`a ${options.kind} has no caption`);
  const fields = base(options);
  const fileId = options.fileId ?? `AwACAgUAAxkBAAI${String(fields.message_id)}`;
  return wrap(options, { ...fields, ...mediaFields(options.kind, fileId), ...captionFields(options) });
}

/** A service message: members joined (delivered even in privacy mode). */
export function membersJoinedUpdate(options: MessageBase & { members: User[] }): NewUpdate {
  return wrap(options, { ...base(options), new_chat_members: options.members });
}
