import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HistoryLimits } from '../agent/history.js';
import type { HandledMessage } from '../src/pipeline/router.js';
import { searxngResult, startSearxngFake, type SearxngFake } from '../test/fakes/search/searxng-fake.js';
import { startFakeModelServer, type FakeModelServer } from '../test/fakes/model-server.js';
import { createTestApp, type TestApp } from '../test/support/test-app.js';
import { labelled } from './model-work-relevance.js';

// What the model-work scenarios run against: the real app (router → agent → guards) on a fake llama-server that
// records every request body, a SearXNG fake with Thai results, and a knowledge-base document on disk.
// A "tools" world is a bot whose model calls tools; a "naive" world one whose model does not (naive RAG).

// 5 March 2026, 10:00 in Bangkok: a fixed date line, so requests differ only by what the app does.
const fixedNow = () => new Date('2026-03-05T03:00:00Z');

export const research = {
  question: 'ข้าวหอมมะลิกับข้าวกล้องต่างกันอย่างไร',
  followUp: 'ดัชนีน้ำตาลข้าวกล้อง ข้าวหอมมะลิ',
  sources: {
    milling: { url: 'https://www.rice.go.th/jasmine-vs-brown', title: 'ข้าวหอมมะลิกับข้าวกล้องต่างกันอย่างไร' },
    fibre: { url: 'https://www.thaihealth.or.th/brown-rice-fibre', title: 'ข้าวกล้องมีใยอาหารมากกว่าข้าวหอมมะลิ' },
    cooking: { url: 'https://www.sanook.com/health/rice-compare', title: 'ข้าวหอมมะลิ ข้าวกล้อง กินแบบไหนดี' },
    glycaemic: { url: 'https://www.pobpad.com/gi-rice', title: 'ดัชนีน้ำตาลข้าวกล้อง ข้าวหอมมะลิ' },
    digestion: { url: 'https://www.hfocus.org/content/rice-gi', title: 'ดัชนีน้ำตาลข้าวกล้อง ข้าวหอมมะลิ เทียบกัน' },
  },
};

const goldResults = (
  JSON.parse(readFileSync(new URL('../test/fixtures/search/searxng-thai-gold.json', import.meta.url), 'utf8')) as { results: Record<string, unknown>[] }
).results;

const { sources } = research;
const web: Record<string, Record<string, unknown>[]> = {
  [research.question]: [
    searxngResult({ ...sources.milling, content: 'ข้าวหอมมะลิผ่านการขัดสี ส่วนข้าวกล้องยังมีรำข้าวและจมูกข้าว' }, 1),
    searxngResult({ ...sources.fibre, content: 'ข้าวกล้อง 100 กรัม มีใยอาหารราว 3.5 กรัม ข้าวหอมมะลิขัดขาวมีราว 1 กรัม' }, 2),
    searxngResult({ ...sources.cooking, content: 'ข้าวกล้องหุงนานกว่าและนุ่มน้อยกว่าข้าวหอมมะลิ' }, 3),
  ],
  [research.followUp]: [
    searxngResult({ ...sources.glycaemic, content: 'ข้าวกล้องมีดัชนีน้ำตาลต่ำกว่าข้าวหอมมะลิ' }, 1),
    searxngResult({ ...sources.digestion, content: 'ข้าวกล้องย่อยช้ากว่า น้ำตาลในเลือดขึ้นช้ากว่า' }, 2),
  ],
};

export const knowledgeBase = {
  name: 'คู่มือพนักงาน',
  document: 'leave-policy.md',
  text: ['# นโยบายการลา', '', 'พนักงานประจำลาพักร้อนได้ 12 วันต่อปี โดยต้องแจ้งหัวหน้างานล่วงหน้าอย่างน้อย 3 วันทำการ', '', 'การลาป่วยเกิน 3 วันติดต่อกันต้องแนบใบรับรองแพทย์'].join(
    '\n',
  ),
};

export interface World {
  fake: FakeModelServer;
  ask(text: string, conversation: string, attachmentPaths?: string[]): Promise<HandledMessage>;
  close(): Promise<void>;
}

/** What a run may change in the app: the history's limits and environment variables (the baseline's policy). */
export interface Policy {
  historyLimits?: HistoryLimits;
  environment?: Record<string, string>;
}

async function openWorld(kind: 'tools' | 'naive', searchUrl: string, policy: Policy): Promise<World> {
  const fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: kind === 'tools' });
  const test: TestApp = createTestApp({
    modelUrl: fake.url,
    environment: {
      MODEL_TOOLS: kind === 'tools' ? 'on' : 'off',
      MODEL_VISION: 'off',
      SEARCH_PROVIDER: 'searxng',
      SEARXNG_URL: searchUrl,
      ...policy.environment,
    },
    now: fixedNow,
    ...(policy.historyLimits ? { historyLimits: policy.historyLimits } : {}),
  });
  return {
    fake,
    ask: (text, conversation, attachmentPaths) => test.ask(text, { conversation, attachmentPaths }),
    close: async () => {
      await test.close();
      await fake.close();
    },
  };
}

/** The shared fakes and files of one bench run; worlds are opened per round, so every round starts empty. */
export interface Bench {
  documentPath: string;
  openWorld(kind: 'tools' | 'naive', policy: Policy): Promise<World>;
  close(): Promise<void>;
}

export async function openBench(): Promise<Bench> {
  const labelledResults = (query: string) =>
    labelled
      .find((entry) => query.includes(entry.query))
      ?.results.map(({ title, url, snippet }, index) => searxngResult({ title, url, content: snippet }, index + 1));
  const searxng: SearxngFake = await startSearxngFake({
    answer: (query) => web[query] ?? (query.includes('ทองคำ') ? goldResults : (labelledResults(query) ?? [])),
  });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-model-work-'));
  const documentPath = path.join(folder, knowledgeBase.document);
  writeFileSync(documentPath, knowledgeBase.text);
  return {
    documentPath,
    openWorld: (kind, policy) => openWorld(kind, searxng.url, policy),
    close: async () => {
      await searxng.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
