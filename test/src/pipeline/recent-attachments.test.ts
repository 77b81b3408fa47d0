import { afterEach, describe, expect, it } from 'vitest';
import { RecentAttachments } from '../../../src/pipeline/recent-attachments.js';
import type { Attachment } from '../../../src/shared/types.js';
import { openStorage, type Storage } from '../../../src/storage/storage.js';
import { inboundMessage, manualClock, photo } from '../../support/inbound-message.js';

const opened: Storage[] = [];
afterEach(() => opened.splice(0).forEach((storage) => storage.close()));

function setup(windowSeconds = 180, maxRemembered?: number) {
  const storage = openStorage(':memory:');
  opened.push(storage);
  const clock = manualClock();
  const images = new RecentAttachments({ store: storage.cache, windowSeconds, now: clock.now, maxRemembered });
  return { storage, clock, images };
}

const unaddressed = (attachments: Attachment[], overrides = {}) => inboundMessage({ attachments, ...overrides });
const addressed = (overrides = {}) => inboundMessage({ text: 'รูปนี้คืออะไร', mentionsBot: true, messageId: '9', ...overrides });

const document = (id: string): Attachment => ({ kind: 'file', mime: 'application/pdf', name: `${id}.pdf`, size: 2000, reference: { kind: 'message', id } });

describe('RecentAttachments', () => {
  it('hands images to a question and files to a command, each kind once, leaving the other kind', async () => {
    const { images } = setup();
    await images.remember(unaddressed([photo('a'), document('manual')]));
    expect(await images.takeFor(addressed(), 'file')).toEqual([document('manual')]);
    expect(await images.takeFor(addressed(), 'file')).toEqual([]);
    expect(await images.takeFor(addressed(), 'image')).toEqual([photo('a')]);
  });

  it('joins an unaddressed image to the same user’s next addressed message, exactly once', async () => {
    const { images } = setup();
    await images.remember(unaddressed([photo('a')]));
    expect(await images.takeFor(addressed(), 'image')).toEqual([photo('a')]);
    expect(await images.takeFor(addressed({ messageId: '10' }), 'image')).toEqual([]);
  });

  it('keeps the images of one message and of several messages in order', async () => {
    const { images } = setup();
    await images.remember(unaddressed([photo('a'), photo('b')]));
    await images.remember(unaddressed([photo('c')], { messageId: '2' }));
    expect((await images.takeFor(addressed(), 'image')).map((attachment) => attachment.name)).toEqual(['a.jpg', 'b.jpg', 'c.jpg']);
  });

  it('puts the message’s own attachments first and never adds the same reference twice', async () => {
    const { images } = setup();
    await images.remember(unaddressed([photo('a'), photo('b')]));
    await images.remember(unaddressed([photo('a')], { messageId: '2' }));
    const joined = await images.takeFor(addressed({ attachments: [photo('b')] }), 'image');
    expect(joined.map((attachment) => attachment.name)).toEqual(['b.jpg', 'a.jpg']);
  });

  it('remembers only the newest images per user and chat', async () => {
    const { images } = setup(180, 4);
    await images.remember(unaddressed([photo('1'), photo('2'), photo('3')]));
    await images.remember(unaddressed([photo('4'), photo('5'), photo('6')], { messageId: '2' }));
    expect((await images.takeFor(addressed(), 'image')).map((attachment) => attachment.name)).toEqual(['3.jpg', '4.jpg', '5.jpg', '6.jpg']);
  });

  it('forgets images once the window has passed (injected clock)', async () => {
    const { images, clock } = setup(180);
    await images.remember(unaddressed([photo('old')]));
    clock.advance(100_000);
    await images.remember(unaddressed([photo('new')], { messageId: '2' }));
    clock.advance(79_999);
    expect((await images.takeFor(addressed(), 'image')).map((attachment) => attachment.name)).toEqual(['old.jpg', 'new.jpg']);

    await images.remember(unaddressed([photo('stale')], { messageId: '3' }));
    clock.advance(180_000);
    expect(await images.takeFor(addressed(), 'image')).toEqual([]);
  });

  it('never joins another user’s images, nor another chat’s, nor another thread’s', async () => {
    const { images } = setup();
    await images.remember(unaddressed([photo('other-user')], { sender: { id: '7', name: 'Malee', isPlatformAdmin: false } }));
    await images.remember(unaddressed([photo('other-chat')], { conversationKey: 'telegram:-200', spaceKey: 'telegram:-200' }));
    await images.remember(unaddressed([photo('other-thread')], { conversationKey: 'telegram:-100:5' }));
    await images.remember(unaddressed([photo('other-platform')], { platform: 'discord', conversationKey: 'discord:-100' }));
    expect(await images.takeFor(addressed(), 'image')).toEqual([]);
    // They are still there for their own sender and conversation.
    expect(await images.takeFor(addressed({ sender: { id: '7', name: 'Malee', isPlatformAdmin: false } }), 'image')).toEqual([photo('other-user')]);
    expect(await images.takeFor(addressed({ conversationKey: 'telegram:-100:5' }), 'image')).toEqual([photo('other-thread')]);
  });

  it('keeps sender ids that contain separators apart', async () => {
    const { images } = setup();
    await images.remember(unaddressed([photo('a')], { conversationKey: 'x:1', sender: { id: '2#3', name: 'A', isPlatformAdmin: false } }));
    expect(await images.takeFor(addressed({ conversationKey: 'x:1#2', sender: { id: '3', name: 'B', isPlatformAdmin: false } }), 'image')).toEqual([]);
  });

  it('loses no image when two messages of one user arrive together', async () => {
    const { images } = setup();
    await Promise.all([images.remember(unaddressed([photo('a')])), images.remember(unaddressed([photo('b')], { messageId: '2' }))]);
    expect((await images.takeFor(addressed(), 'image')).map((attachment) => attachment.name)).toEqual(['a.jpg', 'b.jpg']);
  });

  it('sees an image remembered just before the addressed message, even when not awaited in between', async () => {
    const { images } = setup();
    const remembering = images.remember(unaddressed([photo('a')]));
    const taking = images.takeFor(addressed(), 'image');
    await remembering;
    expect(await taking).toEqual([photo('a')]);
  });

  it('remembers images only, by reference, as plain data in the store', async () => {
    const { images, storage } = setup();
    const pdf: Attachment = { kind: 'file', mime: 'application/pdf', name: 'x.pdf', size: 10, reference: { kind: 'platform-file', id: 'pdf' } };
    await images.remember(unaddressed([pdf]));
    expect(await images.takeFor(addressed(), 'image')).toEqual([]);
    await images.remember(unaddressed([pdf, photo('a')]));
    expect(JSON.stringify(await storage.cache.get('recent-attachments:telegram:-100#42'))).toContain('"id":"a"');
    expect(await images.takeFor(addressed(), 'image')).toEqual([photo('a')]);
  });

  it('does nothing when IMAGE_CONTEXT_SECONDS is 0', async () => {
    const { images, storage } = setup(0);
    await images.remember(unaddressed([photo('a')]));
    expect(await storage.cache.get('recent-attachments:telegram:-100#42')).toBeUndefined();
    expect(await images.takeFor(addressed({ attachments: [photo('own')] }), 'image')).toEqual([photo('own')]);
  });

  it('is shared by two instances over one store, as two bot processes would be', async () => {
    const { storage, clock } = setup();
    const first = new RecentAttachments({ store: storage.cache, windowSeconds: 180, now: clock.now });
    const second = new RecentAttachments({ store: storage.cache, windowSeconds: 180, now: clock.now });
    await first.remember(unaddressed([photo('a')]));
    expect(await second.takeFor(addressed(), 'image')).toEqual([photo('a')]);
    expect(await first.takeFor(addressed(), 'image')).toEqual([]);
  });
});
