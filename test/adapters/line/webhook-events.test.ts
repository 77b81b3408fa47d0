import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineWebhookEvents } from '../../../adapters/line/webhook-events.js';
import { lineUserId, startFakeLine, userSource, type FakeLine } from '../../fakes/line/index.js';

// Audio, video and sticker events are taken as LINE sends them; a sticker whose quotedMessageId is not a string
// (hostile or broken input) is left out as malformed instead of failing the batch.

let line: FakeLine;
beforeAll(async () => {
  line = await startFakeLine();
});
afterAll(async () => {
  await line.close();
});

const read = (events: unknown[]) => lineWebhookEvents(Buffer.from(JSON.stringify({ destination: 'U0', events })), Date.now(), 3_600_000);

describe('LINE webhook events of media the bot cannot read', () => {
  it('takes audio, video and stickers, with or without a quote', () => {
    const source = userSource(lineUserId('somchai'));
    const events = [line.audioEvent({ source }), line.videoEvent({ source }), line.stickerEvent({ source, quotedMessageId: '600000000000000001' })];
    expect(read(events)).toEqual({ events, refused: [] });
  });

  it('refuses a sticker whose quotedMessageId is not a string', () => {
    const event = line.stickerEvent({ source: userSource(lineUserId('somchai')) });
    const broken = { ...event, message: { ...event.message, quotedMessageId: { id: 1 } } };
    expect(read([broken])?.refused).toEqual([{ webhookEventId: event.webhookEventId, reason: 'malformed' }]);
  });
});
