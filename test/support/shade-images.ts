import sharp from 'sharp';
import { messagesOf } from '../fakes/recorded-messages.js';
import type { RequestBody } from '../fakes/model-server.js';

// Small real images told apart by their grey shade: what a vision model is shown is re-encoded (JPEG, no
// metadata), so tests recognise an image by its pixels, not its bytes. Shades are multiples of 10.

/** A PNG of one grey shade. */
export async function shadePng(shade: number, size = 16): Promise<Buffer> {
  return sharp({ create: { width: size, height: size, channels: 3, background: { r: shade, g: shade, b: shade } } })
    .png()
    .toBuffer();
}

/** The data URIs of every image shown to the model in a chat request, in order. */
export function shownImageUrls(body: RequestBody | undefined): string[] {
  return messagesOf(body).flatMap((message) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part: { type?: string; image_url?: { url: string } }) =>
          part.type === 'image_url' && part.image_url ? [part.image_url.url] : [],
        )
      : [],
  );
}

/** The shade of every image shown to the model in a chat request (data URIs), in order, to the nearest 10. */
export async function shownShades(body: RequestBody | undefined): Promise<number[]> {
  const urls = shownImageUrls(body);
  return Promise.all(
    urls.map(async (url) => {
      const { channels } = await sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).stats();
      return Math.round((channels[0]?.mean ?? 0) / 10) * 10;
    }),
  );
}
