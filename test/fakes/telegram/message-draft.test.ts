import { Telegram } from 'telegraf';
import { afterEach, describe, expect, it } from 'vitest';
import { sendMessageDraft } from '../../../adapters/telegram/message-draft.js';
import { draftIdZero, draftsOnlyInPrivateChats } from './methods-drafts.js';
import { groupChat, privateChat, startFakeTelegram, user, type FakeTelegram } from './index.js';

// The fake's sendMessageDraft, through telegraf's raw call as the adapter makes it: private chats only, a non-zero
// draft id, sendMessage's text rules; each draft recorded as parsed, no message stored.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const group = groupChat(-1001234567890, 'ทีมแสง');

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function started(): Promise<{ fake: FakeTelegram; telegram: Telegram }> {
  fake = await startFakeTelegram({ chats: [direct, group] });
  return { fake, telegram: new Telegram(fake.token, { apiRoot: fake.url }) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  return error instanceof Error ? error.message : 'no error';
}

describe('fake sendMessageDraft', () => {
  it('records a private chat draft as parsed, returns true and stores no message', async () => {
    const { fake, telegram } = await started();
    expect(await sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 7, text: '<b>ร่าง</b> คำตอบ', parse_mode: 'HTML' })).toBe(true);
    expect(fake.drafts(direct.id)).toEqual([{ chatId: direct.id, draftId: 7, text: 'ร่าง คำตอบ', entities: [{ type: 'bold', offset: 0, length: 4 }] }]);
    expect(fake.callsOf('sendMessageDraft')[0]?.params).toMatchObject({ chat_id: direct.id, draft_id: 7, text: '<b>ร่าง</b> คำตอบ' });
    expect(fake.sentMessages()).toEqual([]);
  });

  it('refuses groups, a zero draft id, an empty or too long text, and unparsable HTML', async () => {
    const { fake, telegram } = await started();
    expect(await refusal(sendMessageDraft(telegram, { chat_id: group.id, draft_id: 1, text: 'ร่าง' }))).toContain(draftsOnlyInPrivateChats);
    expect(await refusal(sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 0, text: 'ร่าง' }))).toContain(draftIdZero);
    expect(await refusal(sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 1, text: '<b></b>', parse_mode: 'HTML' }))).toContain(
      'message text is empty',
    );
    expect(await refusal(sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 1, text: 'ก'.repeat(4097) }))).toContain('message is too long');
    expect(await refusal(sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 1, text: '<b>ร่าง', parse_mode: 'HTML' }))).toContain(
      "can't parse entities",
    );
    expect(fake.drafts()).toEqual([]);
  });

  it('answers 429 with retry_after while rate-limited, then takes drafts again', async () => {
    const { fake, telegram } = await started();
    fake.rateLimitNext('sendMessageDraft', 4);
    expect(await refusal(sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 1, text: 'ร่าง' }))).toContain('Too Many Requests');
    expect(fake.callsOf('sendMessageDraft')[0]?.outcome).toMatchObject({ ok: false, error: { error_code: 429, parameters: { retry_after: 4 } } });
    await sendMessageDraft(telegram, { chat_id: direct.id, draft_id: 1, text: 'ร่าง' });
    expect(fake.drafts()).toHaveLength(1);
  });
});
