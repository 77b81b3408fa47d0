import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Attachment, InboundMessage } from '../../src/shared/types.js';
import { expandHome } from './attach-path.js';

/** The console's single space: knowledge bases created from the console live here. */
export const consoleSpaceKey = 'console:local';

export interface ConsoleMessageOptions {
  text: string;
  attachmentPaths?: readonly string[];
  /** Conversation name; `console:` is added when missing. */
  conversation?: string;
  userId: string;
  userName?: string;
  group?: boolean;
  mention?: boolean;
}

const imageTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.avif': 'image/avif',
};
const fileTypes: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** Normalizes one console line (or `cli ask`) into the same InboundMessage every platform produces. */
export async function consoleMessage(options: ConsoleMessageOptions): Promise<InboundMessage> {
  const conversation = options.conversation?.trim() || 'local';
  const conversationKey = conversation.startsWith('console:') ? conversation : `console:${conversation}`;
  const attachments = await Promise.all((options.attachmentPaths ?? []).map(fileAttachment));
  return {
    platform: 'console',
    conversationKey,
    spaceKey: consoleSpaceKey,
    messageId: randomUUID(),
    chatKind: options.group ? 'group' : 'direct',
    sender: { id: options.userId, name: options.userName ?? options.userId, isPlatformAdmin: false },
    text: options.text,
    mentionsBot: Boolean(options.mention),
    repliesToBot: false,
    attachments,
    receivedAt: new Date(),
  };
}

/** A missing file fails here (the chat checked it at `/attach` already); the bytes are read when needed. */
async function fileAttachment(file: string): Promise<Attachment> {
  const resolved = expandHome(file);
  const info = await stat(resolved);
  const extension = path.extname(resolved).toLowerCase();
  const imageType = imageTypes[extension];
  return {
    kind: imageType ? 'image' : 'file',
    mime: imageType ?? fileTypes[extension] ?? 'application/octet-stream',
    name: path.basename(resolved),
    size: info.size,
    reference: { kind: 'path', path: resolved },
  };
}
