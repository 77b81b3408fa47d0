import type { APIAttachment } from 'discord.js';
import { cdnSignature, randomHex, snowflake } from './ids.js';

// Attachment files the fake hands out, served from `<cdn>/attachments/{channel}/{id}/{name}` (and the same path under
// `/media` for `proxy_url`) with a signed query as Discord's CDN uses (`ex` expiry and `is` issue time in hex
// seconds, `hm` signature). A wrong signature or a passed `ex` answers 404, as an expired Discord URL does.

export interface StoredAttachment {
  bytes: Buffer;
  contentType: string;
  expiresAt: number;
  /** Signatures of links that were expired by hand (expireAttachment); links signed later still work. */
  revoked: Set<string>;
  /** Links signed so far, so each fresh one differs even within the same second. */
  signed: number;
}

export interface AttachmentOptions {
  name: string;
  contentType?: string;
  /** Default: a channel id of its own (Discord keys attachment paths by the channel the file was posted in). */
  channelId?: string;
  width?: number;
  height?: number;
  description?: string;
  /** The size the attachment object claims; default bytes.length (a test can claim a large file cheaply). */
  size?: number;
  /** A voice message's recording: its length and base64 waveform, as Discord sends them on the attachment. */
  voice?: { durationSecs: number; waveform: string };
}

const urlLifetimeMs = 24 * 60 * 60 * 1000;

export class AttachmentStore {
  private readonly files = new Map<string, StoredAttachment>();
  private readonly key = randomHex(16);

  constructor(
    private readonly cdnBase: string,
    private readonly mediaBase: string,
    private readonly clock: () => number,
  ) {}

  add(bytes: Buffer, options: AttachmentOptions): APIAttachment {
    const id = snowflake();
    const path = `/attachments/${options.channelId ?? snowflake()}/${id}/${encodeURIComponent(options.name)}`;
    const contentType = options.contentType ?? 'application/octet-stream';
    const stored: StoredAttachment = { bytes, contentType, expiresAt: Number.POSITIVE_INFINITY, revoked: new Set(), signed: 0 };
    this.files.set(path, stored);
    const query = this.sign(path, stored);
    const attachment: APIAttachment = {
      id,
      filename: options.name,
      size: options.size ?? bytes.length,
      url: `${this.cdnBase}${path}${query}`,
      proxy_url: `${this.mediaBase}${path}${query}`,
      content_type: contentType,
    };
    if (options.width !== undefined) attachment.width = options.width;
    if (options.height !== undefined) attachment.height = options.height;
    if (options.description !== undefined) attachment.description = options.description;
    if (options.voice) [attachment.duration_secs, attachment.waveform] = [options.voice.durationSecs, options.voice.waveform];
    return attachment;
  }

  /** Makes this link answer 404, as after its `ex` time; a link signed afresh (GET the message again) works. */
  expire(url: string): void {
    const parsed = new URL(url);
    const stored = this.files.get(parsed.pathname.replace(/^\/(?:cdn|media)/, ''));
    stored?.revoked.add(parsed.searchParams.get('hm') ?? '');
  }

  /** The attachment with freshly signed links, as Discord returns it when the message is fetched again. */
  refreshed(attachment: APIAttachment): APIAttachment {
    const path = new URL(attachment.url).pathname.replace(/^\/(?:cdn|media)/, '');
    const stored = this.files.get(path);
    if (!stored) return attachment;
    const query = this.sign(path, stored);
    return { ...attachment, url: `${this.cdnBase}${path}${query}`, proxy_url: `${this.mediaBase}${path}${query}` };
  }

  private sign(path: string, stored: StoredAttachment): string {
    stored.signed += 1;
    // `is` moves by one second per link: a distinct signature even when two are signed in the same second.
    const issued = Math.floor(this.clock() / 1000) + stored.signed;
    const [expiresHex, issuedHex] = [(issued + urlLifetimeMs / 1000).toString(16), issued.toString(16)];
    return `?ex=${expiresHex}&is=${issuedHex}&hm=${cdnSignature(this.key, path, expiresHex, issuedHex)}&`;
  }

  serve(path: string, query: URLSearchParams): StoredAttachment | undefined {
    const stored = this.files.get(path);
    const [expiresHex, issuedHex, signature] = [query.get('ex') ?? '', query.get('is') ?? '', query.get('hm') ?? ''];
    if (!stored || signature !== cdnSignature(this.key, path, expiresHex, issuedHex) || stored.revoked.has(signature)) return undefined;
    if (this.clock() >= Math.min(stored.expiresAt, parseInt(expiresHex, 16) * 1000)) return undefined;
    return stored;
  }
}
