import type { PlatformAdapter } from '../shared/channel.js';
import type { Attachment, Platform } from '../shared/types.js';

/** The bytes behind an attachment, through the adapter of the platform that received it; over `maxBytes` throws. */
export type AttachmentDownloader = (platform: Platform, attachment: Attachment, maxBytes: number) => Promise<Uint8Array>;

/**
 * Picks the adapter by the message's platform, so a reference is only ever read by the adapter that made it
 * (a Telegram message cannot name a local path for the console adapter to read).
 */
export function createAttachmentDownloader(adapters: readonly PlatformAdapter[]): AttachmentDownloader {
  const byPlatform = new Map(adapters.map((adapter) => [adapter.platform, adapter]));
  return async (platform, attachment, maxBytes) => {
    const adapter = byPlatform.get(platform);
    if (!adapter) throw new Error(`no ${platform} adapter to download from`);
    return adapter.download(attachment, maxBytes);
  };
}
