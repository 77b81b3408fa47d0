import { Routes, type APIMessage, type REST } from 'discord.js';
import type { Attachment } from '../../src/shared/types.js';
import { readCapped } from '../common/read-capped.js';

// The bytes of a Discord attachment (docs/platforms.md §1.3). CDN links are signed and expire, so a message's
// attachment is looked up again (GET the message: a fresh link) right before the download; a file uploaded with a
// slash command has no message and comes by the link the interaction gave. Declared sizes are checked first.

export class DiscordDownloadError extends Error {
  override readonly name = 'DiscordDownloadError';
}

const messageReference = /^(\d{1,20}):(\d{1,20}):(\d{1,20})$/;

function tooLarge(size: number, maxBytes: number): DiscordDownloadError {
  return new DiscordDownloadError(`discord attachment is larger than ${maxBytes} bytes (${size})`);
}

async function freshLink(rest: REST, reference: string, maxBytes: number): Promise<string> {
  const [, channelId = '', messageId = '', attachmentId = ''] = messageReference.exec(reference) ?? [];
  if (!attachmentId) throw new DiscordDownloadError(`not a Discord attachment reference: ${reference}`);
  const message = (await rest.get(Routes.channelMessage(channelId, messageId))) as APIMessage;
  const attachment = message.attachments.find((candidate) => candidate.id === attachmentId);
  if (!attachment) throw new DiscordDownloadError('the attachment is gone (the message was edited or deleted)');
  if (attachment.size > maxBytes) throw tooLarge(attachment.size, maxBytes);
  return attachment.url;
}

export async function downloadDiscordAttachment(rest: REST, attachment: Attachment, maxBytes: number): Promise<Uint8Array> {
  if (attachment.size > maxBytes) throw tooLarge(attachment.size, maxBytes);
  const { reference } = attachment;
  let link: string;
  if (reference.kind === 'message') link = await freshLink(rest, reference.id, maxBytes);
  else if (reference.kind === 'url') link = reference.url;
  else throw new DiscordDownloadError(`not a Discord attachment reference: ${reference.kind}`);
  let response: Response;
  try {
    response = await fetch(link, { redirect: 'error' });
  } catch {
    throw new DiscordDownloadError('downloading the discord attachment failed: connection error');
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new DiscordDownloadError(`downloading the discord attachment failed: HTTP ${response.status}`);
  }
  return readCapped(response.body, maxBytes, (size) => tooLarge(size, maxBytes));
}
