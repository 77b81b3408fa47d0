import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger, type Logger } from '../../../src/shared/log.js';
import { openKnowledgeStore, type KnowledgeStore } from '../../../src/knowledge/index.js';
import { utf8 } from './documents.js';

export const seedTime = new Date('2026-03-01T09:00:00Z');

interface Seeded {
  file: string;
  faq: string;
  secret: string;
}

// Seeding parses each document in a worker process (parse-in-worker.ts): done once per test process into a
// template, and each store is a copy of it. The folder lives as long as the process (test files share a process when
// they are not isolated), and goes when it exits.
let folder: string | undefined;
let template: Promise<Seeded> | undefined;
let copies = 0;

function seededFolder(): string {
  if (folder === undefined) {
    const made = mkdtempSync(path.join(os.tmpdir(), 'saeng-seeded-kb-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    folder = made;
  }
  return folder;
}

/** Two KBs of one space: "faq" (bound to discord:chan-1) and "secret" (bound nowhere). */
export async function seededStore(log: Logger = silentLogger()): Promise<{ store: KnowledgeStore; faq: string; secret: string }> {
  const { file, faq, secret } = await (template ??= seed(path.join(seededFolder(), 'template.db')));
  const copy = path.join(seededFolder(), `${++copies}.db`);
  copyFileSync(file, copy);
  return { store: openKnowledgeStore({ path: copy, log }), faq, secret };
}

async function seed(file: string): Promise<Seeded> {
  const store = openKnowledgeStore({ path: file, log: silentLogger() });
  const ids: string[] = [];
  for (const [name, documents] of [
    [
      'faq',
      [
        ['refund.md', '# การคืนเงิน\n\nลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า'],
        ['hours.txt', 'ร้านเปิดทุกวัน เวลา 09:00–18:00 น.'],
      ],
    ],
    ['secret', [['salary.txt', 'เงินเดือนผู้บริหารปี 2567 คือ 950,000 บาท และคืนเงินภาษีได้ 30 วัน']]],
  ] as const) {
    const created = await store.createKnowledgeBase({
      name,
      description: `${name} documents`,
      spaceKey: 'discord:guild-1',
      createdBy: 'discord:admin',
      now: seedTime,
    });
    if (!created.ok) throw new Error(created.reason);
    ids.push(created.knowledgeBase.id);
    for (const [fileName, text] of documents) {
      const added = await store.addDocument(created.knowledgeBase.id, { fileName, bytes: utf8(text), addedBy: 'discord:admin', now: seedTime });
      if (!added.ok) throw new Error(added.failure.code);
    }
  }
  const [faq = '', secret = ''] = ids;
  await store.bind('discord:chan-1', faq, 'discord:admin', seedTime);
  await store.close();
  return { file, faq, secret };
}
