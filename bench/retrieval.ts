// `npm run bench -- retrieval [--quick] [--dataset PATH] [--scale N] [--posting-budget N]`
// Thai retrieval quality on a SQuAD v1.1 file (default: XQuAD-th): every distinct context is one document of
// one knowledge base; for each question, is the document holding the answer among the top k chunks returned?
// The production store is compared in the same run with baselines without Thai segmentation (whitespace
// tokens, character trigrams), with plain segmented BM25, and with the store's own ranking minus its trigram
// signal (the store before trigram rescoring). Then a scale run on ≥ N synthesized chunks.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import { openKnowledgeStore, type KnowledgeStore } from '../src/knowledge/index.js';
import { silentLogger } from '../src/shared/log.js';
// The baselines rebuild the store's pieces by hand (its chunker, tokenizers and FTS5 tokenizer), so they
// import those internals directly; the store itself is opened through the knowledge service's face.
import { chunkText } from '../src/knowledge/ingest/chunk-text.js';
import { normalizeText } from '../src/knowledge/ranking/normalize-text.js';
import { defaultPostingBudget } from '../src/knowledge/ranking/query-terms.js';
import { tokenize, tokenizeWithoutSegmentation } from '../src/knowledge/ranking/tokenize.js';
import { indexTokenizer } from '../src/knowledge/sqlite/schema.js';
import { isQuick, withQuickSettings } from './quick.js';

const squadSchema = z.object({
  data: z.array(
    z.object({
      title: z.string(),
      paragraphs: z.array(z.object({ context: z.string(), qas: z.array(z.object({ question: z.string() })) })),
    }),
  ),
});

export interface Dataset {
  documents: { title: string; text: string }[];
  questions: { text: string; document: number }[];
}

export interface Quality {
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  indexMs: number;
  queryP50Ms: number;
  queryP95Ms: number;
  chunks: number;
}

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index >= 0 ? argv[index + 1] : undefined;
}

export function loadDataset(path: string): Dataset {
  const squad = squadSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  const dataset: Dataset = { documents: [], questions: [] };
  const byContext = new Map<string, number>();
  for (const article of squad.data) {
    for (const paragraph of article.paragraphs) {
      let document = byContext.get(paragraph.context);
      if (document === undefined) {
        document = dataset.documents.push({ title: `${article.title} ${byContext.size + 1}`, text: paragraph.context }) - 1;
        byContext.set(paragraph.context, document);
      }
      for (const qa of paragraph.qas) dataset.questions.push({ text: qa.question, document });
    }
  }
  return dataset;
}

/** `--quick`: the first documents of the set and their questions (a run of seconds that proves the bench runs). */
export function firstDocuments(dataset: Dataset, count: number): Dataset {
  return { documents: dataset.documents.slice(0, count), questions: dataset.questions.filter((question) => question.document < count) };
}

/** How many documents `--quick` keeps. */
export const quickDocuments = 20;

export function percentile(sorted: readonly number[], fraction: number): number {
  const value = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
  return Math.round(value * 100) / 100;
}

const round = (value: number): number => Math.round(value * 1000) / 1000;

/** Ranks of the right document (by first chunk of it in the results) → recall@k, MRR, latency. */
function score(ranks: readonly number[], times: number[], indexMs: number, chunks: number): Quality {
  const within = (k: number): number => round(ranks.filter((rank) => rank >= 0 && rank < k).length / ranks.length);
  times.sort((left, right) => left - right);
  return {
    recallAt1: within(1),
    recallAt5: within(5),
    recallAt10: within(10),
    mrr: round(ranks.reduce((sum, rank) => sum + (rank >= 0 ? 1 / (rank + 1) : 0), 0) / ranks.length),
    indexMs: Math.round(indexMs),
    queryP50Ms: percentile(times, 0.5),
    queryP95Ms: percentile(times, 0.95),
    chunks,
  };
}

/** `trigramWeight: 0` is the store before trigram rescoring (segmented BM25 alone), kept to show the gain. */
async function measureStore(dataset: Dataset, trigramWeight?: number): Promise<Quality> {
  const store = openKnowledgeStore({ path: ':memory:', log: silentLogger(), ...(trigramWeight === undefined ? {} : { trigramWeight }) });
  try {
    return await measureQuality(store, dataset);
  } finally {
    await store.close();
  }
}

/** Every document into one new knowledge base of `store`, then every question (any backend). */
export async function measureQuality(store: KnowledgeStore, dataset: Dataset): Promise<Quality> {
  const created = await store.createKnowledgeBase({ name: 'bench', description: '', spaceKey: 'console:bench', createdBy: 'bench', now: new Date() });
  if (!created.ok) throw new Error('could not create the benchmark knowledge base');
  const knowledgeBaseId = created.knowledgeBase.id;
  const documentIds: number[] = [];
  const started = performance.now();
  for (const document of dataset.documents) {
    const added = await store.addDocument(knowledgeBaseId, {
      fileName: `${document.title}.txt`,
      title: document.title,
      bytes: Buffer.from(document.text),
      addedBy: 'bench',
      now: new Date(),
    });
    documentIds.push(added.ok ? added.document.id : -1);
  }
  const indexMs = performance.now() - started;
  const chunks = (await store.summarize(knowledgeBaseId))?.chunkCount ?? 0;
  const ranks: number[] = [];
  const times: number[] = [];
  for (const question of dataset.questions) {
    const start = performance.now();
    const hits = await store.search([knowledgeBaseId], question.text, 10);
    times.push(performance.now() - start);
    ranks.push(hits.findIndex((hit) => hit.documentId === documentIds[question.document]));
  }
  return score(ranks, times, indexMs, chunks);
}

type Variant = 'whitespace' | 'trigram' | 'segmented-plain';

function trigrams(text: string): string[] {
  const characters = Array.from(normalizeText(text).toLowerCase().replace(/"/g, ' '));
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= characters.length; index += 1) {
    const gram = characters.slice(index, index + 3).join('');
    if (gram.trim().length === 3) grams.add(gram);
  }
  return [...grams];
}

/** The same chunks and FTS5 BM25 as the store, with another tokenization and every query term ORed. */
function measureBaseline(dataset: Dataset, variant: Variant): Quality {
  const database = new BetterSqlite3(':memory:');
  const tokenizer = variant === 'trigram' ? 'trigram' : indexTokenizer;
  database.exec(`CREATE VIRTUAL TABLE chunks USING fts5(document UNINDEXED, body, tokenize="${tokenizer}")`);
  const insert = database.prepare('INSERT INTO chunks (document, body) VALUES (?, ?)');
  const split = variant === 'whitespace' ? tokenizeWithoutSegmentation : tokenize;
  const started = performance.now();
  let chunks = 0;
  database.transaction(() => {
    dataset.documents.forEach((document, index) => {
      for (const chunk of chunkText(document.text)) {
        insert.run(index, variant === 'trigram' ? chunk.text.toLowerCase() : split(chunk.text).join(' '));
        chunks += 1;
      }
    });
  })();
  const indexMs = performance.now() - started;
  const query = database.prepare('SELECT document FROM chunks WHERE chunks MATCH ? ORDER BY rank LIMIT 10').pluck();
  const ranks: number[] = [];
  const times: number[] = [];
  for (const question of dataset.questions) {
    const start = performance.now();
    const terms = variant === 'trigram' ? trigrams(question.text) : [...new Set(split(question.text))];
    const documents = terms.length > 0 ? z.array(z.number()).parse(query.all(terms.map((term) => `"${term}"`).join(' OR '))) : [];
    times.push(performance.now() - start);
    ranks.push(documents.indexOf(question.document));
  }
  database.close();
  return score(ranks, times, indexMs, chunks);
}

/** Deterministic pseudo-random numbers so every run indexes the same synthetic text. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

export interface ScaleLoad {
  knowledgeBaseId: string;
  chunks: number;
  characters: number;
  indexMs: number;
}

/** ≥ `targetChunks` chunks of ~900 characters made of phrases of the dataset, in documents of 200 paragraphs (any backend). */
export async function loadScale(store: KnowledgeStore, dataset: Dataset, targetChunks: number): Promise<ScaleLoad> {
  const phrases = dataset.documents.flatMap((document) => normalizeText(document.text).split(/\s/).filter(Boolean));
  const next = random(42);
  const created = await store.createKnowledgeBase({ name: 'scale', description: '', spaceKey: 'console:bench', createdBy: 'bench', now: new Date() });
  if (!created.ok) throw new Error('could not create the scale knowledge base');
  const knowledgeBaseId = created.knowledgeBase.id;
  let chunks = 0;
  let characters = 0;
  const started = performance.now();
  for (let documentNumber = 0; chunks < targetChunks; documentNumber += 1) {
    const paragraphs: string[] = [];
    for (let paragraph = 0; paragraph < 200; paragraph += 1) {
      let text = '';
      while (text.length < 900) text += (text ? ' ' : '') + (phrases[Math.floor(next() * phrases.length)] ?? '');
      paragraphs.push(text);
    }
    const body = paragraphs.join('\n\n');
    characters += body.length;
    const added = await store.addDocument(knowledgeBaseId, {
      fileName: `synthetic-${documentNumber}.txt`,
      bytes: Buffer.from(body),
      addedBy: 'bench',
      now: new Date(),
    });
    if (!added.ok) throw new Error(`scale document ${documentNumber} was refused: ${added.failure.code}`);
    chunks += added.document.chunkCount;
  }
  return { knowledgeBaseId, chunks, characters, indexMs: performance.now() - started };
}

/** Every question of the dataset against one knowledge base; milliseconds per search, sorted. */
export async function timeSearches(store: KnowledgeStore, knowledgeBaseId: string, dataset: Dataset): Promise<number[]> {
  const times: number[] = [];
  for (const question of dataset.questions) {
    const start = performance.now();
    await store.search([knowledgeBaseId], question.text, 10);
    times.push(performance.now() - start);
  }
  return times.sort((left, right) => left - right);
}

async function measureScale(dataset: Dataset, targetChunks: number, postingBudget: number): Promise<Record<string, number>> {
  const directory = mkdtempSync(join(tmpdir(), 'saeng-retrieval-'));
  try {
    const store = openKnowledgeStore({ path: join(directory, 'knowledge.db'), log: silentLogger(), postingBudget, maxTextCharacters: 10_000_000 });
    const { knowledgeBaseId, chunks, characters, indexMs } = await loadScale(store, dataset, targetChunks);
    const times = await timeSearches(store, knowledgeBaseId, dataset);
    await store.close();
    return {
      chunks,
      postingBudget,
      indexMs: Math.round(indexMs),
      chunksPerSecond: Math.round((chunks / indexMs) * 1000),
      charactersPerSecond: Math.round((characters / indexMs) * 1000),
      queries: times.length,
      queryP50Ms: percentile(times, 0.5),
      queryP95Ms: percentile(times, 0.95),
      rssMb: Math.round(process.memoryUsage().rss / 1e6),
      peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function main(given: string[]): Promise<void> {
  const argv = withQuickSettings(given, ['--scale', '2000']);
  const quick = isQuick(argv);
  const datasetPath = resolve(option(argv, '--dataset') ?? join(projectRoot, 'test/fixtures/knowledge/xquad.th.json'));
  const scaleChunks = Number(option(argv, '--scale') ?? 100_000);
  const postingBudget = Number(option(argv, '--posting-budget') ?? defaultPostingBudget);
  if (!Number.isInteger(scaleChunks) || scaleChunks < 0 || !Number.isInteger(postingBudget) || postingBudget < 1) {
    throw new Error('--scale and --posting-budget take whole numbers');
  }
  const whole = loadDataset(datasetPath);
  const dataset = quick ? firstDocuments(whole, quickDocuments) : whole;
  const store = await measureStore(dataset);
  const baselines = {
    whitespace: measureBaseline(dataset, 'whitespace'),
    trigram: measureBaseline(dataset, 'trigram'),
    segmentedPlain: measureBaseline(dataset, 'segmented-plain'),
    storeWithoutTrigrams: await measureStore(dataset, 0),
  };
  const scale = scaleChunks > 0 ? await measureScale(dataset, scaleChunks, postingBudget) : undefined;
  const report = {
    dataset: datasetPath,
    quick,
    documents: dataset.documents.length,
    questions: dataset.questions.length,
    store,
    baselines,
    scale,
    targets: {
      recallAt5: { target: 0.9, value: store.recallAt5, met: store.recallAt5 >= 0.9 },
      scaleQueryP95Ms: { target: 20, value: scale?.queryP95Ms, met: scale ? (scale.queryP95Ms ?? Infinity) <= 20 : undefined },
      peakRssMb: { target: 300, value: scale?.peakRssMb, met: scale ? (scale.peakRssMb ?? Infinity) <= 300 : undefined },
    },
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
