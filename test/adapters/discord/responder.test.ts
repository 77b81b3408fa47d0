import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderForPlatform } from '../format/by-platform.js';
import { discordUploadLimitBytes } from '../../../adapters/discord/delivery.js';
import { memoryJournal } from '../../../src/pipeline/reply-journal.js';
import type { InboundMessage, OutboundFile } from '../../../src/shared/types.js';
import type { FakeDiscord } from '../../fakes/discord/index.js';
import { longThaiText } from '../../support/long-thai-text.js';
import * as setUp from './responder-setup.js';

// The Discord responder over real @discordjs/rest against the fake: a slash command's long answer edits the
// deferred reply and follows up, progress shows in the deferred reply or in one edited channel message, files go
// as attachments and one over the upload limit becomes a note.

let setup: setUp.ResponderSetup;
let fake: FakeDiscord;
let directory: string;

beforeEach(async () => {
  setup = await setUp.setUpResponder();
  fake = setup.fake;
  directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-discord-files-'));
});
afterEach(async () => {
  await setup.close();
  rmSync(directory, { recursive: true, force: true });
});

const responderFor = (message: InboundMessage) => setUp.responderFor(setup, message);
const question = (overrides: Partial<InboundMessage> = {}) => setUp.question(fake, overrides);
const deferredCommand = (commandName: string, text: string) => setUp.deferredCommand(setup, commandName, text);

function file(name: string, bytes: number): OutboundFile {
  const filePath = path.join(directory, name);
  writeFileSync(filePath, Buffer.alloc(bytes, 0x41));
  return { name, path: filePath, mime: 'text/plain', size: bytes };
}

describe('Discord responder', () => {
  it('edits the deferred reply into the first part of a long answer and follows up with the rest', async () => {
    const message = await deferredCommand('research', '/research เล่าประวัติ');
    const text = longThaiText(4_500);
    await responderFor(message).send({ text, files: [] }, memoryJournal());
    const expected = renderForPlatform(text, 'discord');
    expect(expected.length).toBeGreaterThan(2);
    expect(fake.callsOf(`PATCH /webhooks/${fake.applicationId}/*/messages/@original`)).toHaveLength(1);
    expect(fake.callsOf(`POST /webhooks/${fake.applicationId}/*`)).toHaveLength(expected.length - 1);
    expect(fake.sentMessages(fake.channel('general').id).map((sent) => sent.content)).toEqual(expected);
  });

  it('shows /research progress in the deferred reply, which the answer then replaces', async () => {
    const message = await deferredCommand('research', '/research ราคาทอง');
    const responder = responderFor(message);
    await responder.progress?.({ source: 'research', text: 'กำลังค้นรอบที่ 1' });
    await responder.progress?.({ source: 'research', text: 'กำลังค้นรอบที่ 2' });
    expect(fake.sentMessages(fake.channel('general').id).map((sent) => sent.content)).toEqual(['กำลังค้นรอบที่ 2']);
    await responder.send({ text: 'สรุปราคาทอง', files: [] }, memoryJournal());
    expect(fake.sentMessages(fake.channel('general').id).map((sent) => sent.content)).toEqual(['สรุปราคาทอง']);
  });

  it('shows progress of a typed command as one channel message, edited in place', async () => {
    const responder = responderFor(question({ text: '/research ราคาทอง' }));
    await responder.progress?.({ source: 'research', text: 'รอบที่ 1' });
    await responder.progress?.({ source: 'research', text: 'รอบที่ 2' });
    const channelId = fake.channel('general').id;
    expect(fake.callsOf('POST /channels/*/messages')).toHaveLength(1);
    expect(fake.sentMessages(channelId).map((sent) => sent.content)).toEqual(['รอบที่ 2']);
  });

  it('sends written files as attachments and says so when one is over the upload limit', async () => {
    const responder = responderFor(question());
    await responder.send({ text: 'ไฟล์สรุป', files: [file('summary.txt', 20), file('huge.bin', discordUploadLimitBytes + 1)] }, memoryJournal());
    const sent = fake.sentMessages(fake.channel('general').id);
    expect(sent.map((message) => message.content)).toEqual(['ไฟล์สรุป', '', 'ไฟล์ huge.bin ใหญ่เกินกว่าที่ Discord รับได้ (10 MB) จึงส่งไม่ได้']);
    expect(sent[1]?.attachments.map((attachment) => attachment.filename)).toEqual(['summary.txt']);
  });
});
