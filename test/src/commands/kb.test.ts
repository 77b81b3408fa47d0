import { afterEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createKnowledgeCommand } from '../../../src/commands/kb.js';
import { parseCommand } from '../../../src/commands/parse.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { KnowledgeStore } from '../../../src/knowledge/index.js';
import type { Attachment, Language } from '../../../src/shared/types.js';
import { makePdf, utf8 } from '../../support/knowledge/documents.js';
import { seededStore, seedTime } from '../../support/knowledge/seeded-store.js';

type Role = 'global-admin' | 'space-admin' | 'other-space-admin' | 'user';

const stores: KnowledgeStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function context(role: Role, options: { attachments?: Attachment[]; language?: Language; now?: Date; senderId?: string } = {}): CommandContext {
  const otherSpace = role === 'other-space-admin';
  return {
    message: {
      platform: 'discord',
      conversationKey: otherSpace ? 'discord:chan-9' : 'discord:chan-1',
      spaceKey: otherSpace ? 'discord:guild-2' : 'discord:guild-1',
      messageId: 'm1',
      chatKind: 'group',
      sender: { id: options.senderId ?? role, name: role, isPlatformAdmin: role === 'space-admin' || role === 'other-space-admin' },
      text: '',
      mentionsBot: true,
      repliesToBot: false,
      attachments: options.attachments ?? [],
      receivedAt: seedTime,
    },
    language: options.language ?? 'en',
    isGlobalAdmin: role === 'global-admin',
    log: silentLogger(),
    now: () => options.now ?? seedTime,
    progress: () => undefined,
    download: (item) => downloads.get(item)?.() ?? Promise.reject(new Error('unknown attachment')),
  };
}

/** What downloading each test attachment does (the adapter's part in the app). */
const downloads = new WeakMap<Attachment, () => Promise<Uint8Array>>();

function attachment(name: string, bytes: Uint8Array, options: { size?: number; fail?: boolean } = {}): Attachment & { fetched: () => number } {
  let fetches = 0;
  const made: Attachment & { fetched: () => number } = {
    kind: 'file',
    mime: 'application/octet-stream',
    name,
    size: options.size ?? bytes.length,
    reference: { kind: 'url', url: `https://cdn.example.com/${encodeURIComponent(name)}` },
    fetched: () => fetches,
  };
  downloads.set(made, async () => {
    fetches += 1;
    if (options.fail) throw new Error('ETIMEDOUT');
    return bytes;
  });
  return made;
}

async function setup(maxAttachmentBytes = 1024 * 1024) {
  const seeded = await seededStore();
  stores.push(seeded.store);
  const handler = createKnowledgeCommand(seeded.store, { maxAttachmentBytes });
  const run = async (text: string, commandContext: CommandContext): Promise<string> => {
    const parsed = parseCommand(text);
    if (parsed.kind !== 'command') throw new Error(`not a command: ${text}`);
    return (await handler.run(parsed.command, commandContext)).text;
  };
  const refundId = (await seeded.store.documents(seeded.faq)).find((document) => document.title === 'refund.md')?.id ?? -1;
  return { ...seeded, handler, run, refundId };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function snapshot({ store }: Setup): Promise<string> {
  const knowledgeBases = await store.listKnowledgeBases();
  return JSON.stringify({
    knowledgeBases,
    documents: await Promise.all(knowledgeBases.map((knowledgeBase) => store.documents(knowledgeBase.id))),
    bindings: await Promise.all(['discord:chan-1', 'discord:chan-9'].map((conversation) => store.boundKnowledgeBaseIds(conversation))),
  });
}

const refusalText = 'Sorry, /kb is only for the admins of this group or the bot admins.';
const otherSpaceText = /^Sorry, the knowledge base “(faq|secret)” belongs to another group/;

interface Case {
  subcommand: string;
  text(setup: Setup): string;
  /** Did it take effect (for the roles allowed to do it)? */
  succeeded(reply: string, setup: Setup): Promise<boolean>;
  /** Creating a KB is not about an existing KB: a space admin of another space creates one in their own space. */
  otherSpaceMaySucceed?: boolean;
}

const cases: Case[] = [
  { subcommand: 'list', text: () => '/kb list', succeeded: async (reply) => reply.includes('**faq**') },
  {
    subcommand: 'create',
    text: () => '/kb create manual Staff handbook',
    succeeded: async (_reply, { store }) => (await store.findKnowledgeBases('manual')).length === 1,
    otherSpaceMaySucceed: true,
  },
  {
    subcommand: 'add',
    text: ({ faq }) => `/kb add ${faq} Parking is in the basement`,
    succeeded: async (_reply, { store, faq }) => (await store.documents(faq)).length === 3,
  },
  { subcommand: 'docs', text: ({ faq }) => `/kb docs ${faq}`, succeeded: async (reply) => reply.includes('refund.md') },
  {
    subcommand: 'remove-doc',
    text: ({ faq, refundId }) => `/kb remove-doc ${faq} #${refundId}`,
    succeeded: async (_reply, { store, faq }) => (await store.documents(faq)).length === 1,
  },
  { subcommand: 'search', text: ({ faq }) => `/kb search ${faq} คืนเงิน`, succeeded: async (reply) => reply.includes('**refund.md**') },
  {
    subcommand: 'bind',
    text: ({ secret }) => `/kb bind ${secret}`,
    succeeded: async (_reply, { store, secret }) => (await store.boundKnowledgeBaseIds('discord:chan-1')).includes(secret),
  },
  {
    subcommand: 'unbind',
    text: ({ faq }) => `/kb unbind ${faq}`,
    succeeded: async (_reply, { store }) => (await store.boundKnowledgeBaseIds('discord:chan-1')).length === 0,
  },
  {
    subcommand: 'info',
    text: ({ faq }) => `/kb info ${faq}`,
    succeeded: async (reply, { faq }) => reply.includes(`(\`${faq}\`)`) && reply.includes('2 documents'),
  },
  {
    subcommand: 'delete',
    text: ({ faq }) => `/kb delete ${faq}`,
    succeeded: async (_reply, { store, faq }) => (await store.getKnowledgeBase(faq)) === undefined,
  },
];

/** Runs the case; for delete, answers the confirmation prompt with its code as the same person. */
async function perform(testCase: Case, role: Role, state: Setup): Promise<string> {
  const reply = await state.run(testCase.text(state), context(role));
  const code = /`\/kb delete [a-z0-9]{12} ([0-9]{4})`/.exec(reply)?.[1];
  if (testCase.subcommand === 'delete' && code) return state.run(`${testCase.text(state)} ${code}`, context(role));
  return reply;
}

describe('/kb authorization: every subcommand × every role', () => {
  describe.each(cases)('/kb $subcommand', (testCase) => {
    it.each(['global-admin', 'space-admin'] as const)('%s may', async (role) => {
      const state = await setup();
      const reply = await perform(testCase, role, state);
      expect(await testCase.succeeded(reply, state), reply).toBe(true);
    });

    it('a space admin of another space may not touch this space’s KB', async () => {
      const state = await setup();
      const before = await snapshot(state);
      const reply = await perform(testCase, 'other-space-admin', state);
      if (testCase.otherSpaceMaySucceed) {
        expect(await testCase.succeeded(reply, state)).toBe(true);
        expect((await state.store.findKnowledgeBases('manual'))[0]?.spaceKey).toBe('discord:guild-2');
        return;
      }
      if (testCase.subcommand === 'list') expect(reply).not.toContain('faq');
      else expect(reply).toMatch(otherSpaceText);
      expect(await snapshot(state)).toBe(before);
    });

    it('a plain user gets a polite refusal and nothing changes', async () => {
      const state = await setup();
      const before = await snapshot(state);
      expect(await perform(testCase, 'user', state)).toBe(refusalText);
      expect(await snapshot(state)).toBe(before);
    });
  });

  it('refuses plain users in Thai by default', async () => {
    const { run } = await setup();
    expect(await run('/kb', context('user', { language: 'th' }))).toBe('ขออภัยครับ คำสั่ง /kb ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น');
  });
});

describe('/kb delete confirmation', () => {
  it('deletes only after the code comes back from the same person, in the same chat, in time', async () => {
    const state = await setup();
    const { run, store, faq } = state;
    const prompt = await run('/kb delete faq', context('space-admin'));
    expect(prompt).toContain('This deletes the knowledge base **faq** for good (2 documents, used in 1 chats)');
    const code = /`\/kb delete faq ([0-9]{4})`/.exec(prompt)?.[1] ?? '';
    expect(code).toMatch(/^[0-9]{4}$/);
    const wrong = code === '1000' ? '1001' : '1000';

    expect(await run(`/kb delete faq ${wrong}`, context('space-admin'))).toContain('Wrong confirmation code');
    expect(await run(`/kb delete faq ${code}`, context('space-admin', { senderId: 'another-admin' }))).toContain('No deletion is waiting');
    expect(await run(`/kb delete faq ${code}`, context('global-admin'))).toContain('No deletion is waiting');
    expect(await store.getKnowledgeBase(faq)).toBeDefined();

    expect(await run(`/kb delete faq ${code}`, context('space-admin'))).toBe('Deleted the knowledge base **faq**.');
    expect(await store.getKnowledgeBase(faq)).toBeUndefined();
    expect(await store.boundKnowledgeBaseIds('discord:chan-1')).toEqual([]);
  });

  it('expires after five minutes', async () => {
    const { run, store, faq } = await setup();
    const prompt = await run('/kb delete faq', context('space-admin'));
    const code = /`\/kb delete faq ([0-9]{4})`/.exec(prompt)?.[1] ?? '';
    const later = new Date(seedTime.getTime() + 5 * 60_000 + 1);
    expect(await run(`/kb delete faq ${code}`, context('space-admin', { now: later }))).toContain('No deletion is waiting');
    expect(await store.getKnowledgeBase(faq)).toBeDefined();
  });

  it('asks in Thai by default', async () => {
    const { run } = await setup();
    expect(await run('/kb delete faq', context('space-admin', { language: 'th' }))).toMatch(/^⚠️ จะลบคลังความรู้ \*\*faq\*\* ทั้งหมด \(2 เอกสาร, ใช้อยู่ใน 1 ห้อง\)/);
  });
});

describe('/kb add', () => {
  it('adds several attached files and reports each one, including refusals', async () => {
    const { run, store, faq } = await setup();
    const files = [
      attachment('parking.md', utf8('# Parking\n\nThe car park is in the basement.')),
      attachment('manual.pdf', await makePdf([['Opening hours are 9 to 6.']])),
      attachment('fake.pdf', utf8('not a pdf')),
      attachment('refund-copy.txt', utf8('การคืนเงิน\n\nลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า')),
    ];
    const reply = await run('/kb add faq', context('space-admin', { attachments: files }));
    const lines = reply.split('\n');
    expect(lines[0]).toBe('Knowledge base **faq**:');
    expect(lines[1]).toMatch(/^✅ “parking.md” added \(#[0-9]+, 1 passages\)$/);
    expect(lines[2]).toMatch(/^✅ “manual.pdf” added/);
    expect(lines[3]).toBe('❌ “fake.pdf”: This file is named .pdf but its content is text.');
    expect(lines[4]).toBe('❌ “refund-copy.txt”: A document with the same content is already there: “refund.md”.');
    expect((await store.documents(faq)).map((document) => document.title)).toEqual(['refund.md', 'hours.txt', 'parking.md', 'manual.pdf']);
  });

  it('titles a single attachment with the text after the name', async () => {
    const { run, store, faq } = await setup();
    await run('/kb add faq Parking rules 2026', context('space-admin', { attachments: [attachment('p.txt', utf8('Park in the basement.'))] }));
    expect((await store.documents(faq)).at(-1)).toMatchObject({ title: 'Parking rules 2026', sourceName: 'p.txt' });
  });

  it('adds the text after the name as a document titled by its first line (newlines kept)', async () => {
    const { run, store, faq } = await setup();
    const reply = await run('/kb add faq ที่จอดรถ\nอยู่ชั้นใต้ดิน B2', context('global-admin', { language: 'th' }));
    expect(reply).toMatch(/✅ “ที่จอดรถ” เพิ่มแล้ว \(#[0-9]+, 1 ส่วน\)/);
    const hits = await store.search([faq], 'ที่จอดรถ', 1);
    expect(hits[0]?.text).toBe('ที่จอดรถ\nอยู่ชั้นใต้ดิน B2');
  });

  it('refuses an attachment over the cap without downloading it, and reports download failures', async () => {
    const { run, store, faq } = await setup(1000);
    const big = attachment('big.txt', utf8('x'), { size: 5000 });
    const broken = attachment('broken.txt', utf8('x'), { fail: true });
    const lying = attachment('lying.txt', utf8('ก'.repeat(2000)), { size: 10 });
    const reply = await run('/kb add faq', context('space-admin', { attachments: [big, broken, lying] }));
    expect(reply).toContain('❌ “big.txt”: The file is too large (limit 1000 B).');
    expect(reply).toContain('❌ “broken.txt”: downloading the file failed; please send it again');
    expect(reply).toContain('❌ “lying.txt”: The file is too large');
    expect(big.fetched()).toBe(0);
    expect(await store.documents(faq)).toHaveLength(2);
  });

  it('shows usage without a KB or content', async () => {
    const { run } = await setup();
    expect(await run('/kb add', context('space-admin'))).toMatch(/^Usage: \/kb add/);
    expect(await run('/kb add faq', context('space-admin'))).toMatch(/^Usage: \/kb add/);
  });
});

describe('/kb naming and listing', () => {
  it('resolves names in this space; only global admins reach other spaces by name', async () => {
    const { run, store } = await setup();
    const created = await store.createKnowledgeBase({ name: 'handbook', description: '', spaceKey: 'telegram:-100', createdBy: 'telegram:1', now: seedTime });
    if (!created.ok) throw new Error(created.reason);
    expect(await run('/kb info handbook', context('space-admin'))).toBe('No knowledge base “handbook”. See /kb list.');
    expect(await run('/kb info handbook', context('global-admin'))).toContain(`**handbook** (\`${created.knowledgeBase.id}\`)`);
    await store.createKnowledgeBase({ name: 'handbook', description: '', spaceKey: 'line:group-7', createdBy: 'line:1', now: seedTime });
    expect(await run('/kb info handbook', context('global-admin'))).toMatch(/^Several groups have a knowledge base named “handbook”; use its id: `kb/);
  });

  it('lists this space’s KBs with 🔗 on those used here, and KBs of other spaces bound here', async () => {
    const { run, store } = await setup();
    const foreign = await store.createKnowledgeBase({
      name: 'company',
      description: 'company-wide',
      spaceKey: 'discord:hq',
      createdBy: 'discord:root',
      now: seedTime,
    });
    if (!foreign.ok) throw new Error(foreign.reason);
    await store.bind('discord:chan-1', foreign.knowledgeBase.id, 'discord:root', seedTime);
    const reply = await run('/kb list', context('space-admin'));
    const [here, elsewhere] = reply.split('\n\n');
    expect(here).toContain('**Knowledge bases of this group**');
    expect(here).toMatch(/- \*\*faq\*\* \(`kb[a-z0-9]{10}`\) — faq documents · 2 documents · 🔗 used in this chat/);
    expect(here).toMatch(/- \*\*secret\*\* \(`kb[a-z0-9]{10}`\) — secret documents · 1 documents$/m);
    expect(elsewhere).toContain('**Bound to this chat (from elsewhere)**');
    expect(elsewhere).toContain('**company**');
    expect(await run('/kb list', context('other-space-admin'))).toBe('No knowledge bases yet. Create one with /kb create <name> [description].');
  });

  it('names the space the user is in: a direct chat and the console are not "this group"', async () => {
    const { run } = await setup();
    const inSpace = (platform: 'discord' | 'console', chatKind: 'direct' | 'group', language: 'th' | 'en'): CommandContext => {
      const base = context('space-admin', { language });
      return { ...base, message: { ...base.message, platform, chatKind } };
    };
    expect(await run('/kb list', inSpace('console', 'direct', 'th'))).toContain('**คลังความรู้ของคอนโซลนี้**');
    expect(await run('/kb create FAQ', inSpace('console', 'direct', 'en'))).toBe('This console already has a knowledge base named “FAQ”.');
    expect(await run('/kb create FAQ', inSpace('discord', 'direct', 'th'))).toBe('แชตนี้มีคลังความรู้ชื่อ “FAQ” อยู่แล้ว');
    expect(await run('/kb create FAQ', inSpace('discord', 'group', 'th'))).toBe('กลุ่มนี้มีคลังความรู้ชื่อ “FAQ” อยู่แล้ว');
  });

  it('escapes Markdown in names users chose', async () => {
    const { run, store, faq } = await setup();
    await store.addDocument(faq, { fileName: 'price_list*2026.txt', bytes: utf8('ราคาใหม่'), addedBy: 'u', now: seedTime });
    expect(await run('/kb docs faq', context('space-admin'))).toContain('price\\_list\\*2026.txt');
  });

  it('explains bad names, duplicates, unknown documents and subcommands', async () => {
    const { run } = await setup();
    expect(await run('/kb create "two words"', context('space-admin'))).toContain('The name “two words” is not valid');
    expect(await run('/kb create FAQ', context('space-admin'))).toBe('This group already has a knowledge base named “FAQ”.');
    expect(await run('/kb remove-doc faq #999', context('space-admin'))).toBe('No document “#999” in **faq**. See /kb docs faq.');
    expect(await run('/kb remove-doc faq hours.txt', context('space-admin'))).toMatch(/^Removed document #[0-9]+ “hours.txt” from \*\*faq\*\*\.$/);
    expect(await run('/kb frobnicate', context('space-admin'))).toMatch(/^Unknown subcommand “frobnicate”\.\n\n\*\*Knowledge bases \(\/kb\)\*\*/);
    expect(await run('/kb', context('space-admin', { language: 'th' }))).toMatch(/^\*\*คลังความรู้ \(\/kb\)\*\*/);
    expect(await run('/kb search faq', context('space-admin'))).toBe('Usage: /kb search <kb> <query>');
    expect(await run('/kb search faq ภูเขาไฟ', context('space-admin'))).toBe('Nothing in **faq** matches “ภูเขาไฟ”.');
  });

  it('binds and unbinds with clear replies', async () => {
    const { run, secret } = await setup();
    expect(await run('/kb bind secret', context('space-admin', { language: 'th' }))).toBe('ห้องนี้ใช้คลังความรู้ **secret** แล้ว บอทจะตอบจากเอกสารในคลังนี้');
    expect(await run(`/kb bind ${secret}`, context('space-admin'))).toBe('This chat already uses **secret**.');
    expect(await run('/kb unbind secret', context('space-admin'))).toBe('This chat no longer uses **secret**.');
    expect(await run('/kb unbind secret', context('space-admin'))).toBe('This chat does not use **secret**.');
  });
});
