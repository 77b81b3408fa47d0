import type { Localized } from '../../../src/shared/i18n.js';
import { say } from '../../../src/shared/i18n.js';
import { logFailure, type Logger } from '../../../src/shared/log.js';
import type { Citation, Language } from '../../../src/shared/types.js';
import type { TextCompleter } from '../../model/index.js';
import { CitationNumbering, type Source, renumberMarkers } from './citations.js';
import type { FigureConflict } from './conflicts.js';
import { extractFigures } from './figures.js';
import type { Fact } from './types.js';

// The cited write-up. Conflicting figures are given to the model to report; if its answer leaves either
// figure out, code appends the conflict so it is never silently resolved.

const conflictNote: Localized = {
  th: 'ข้อมูลไม่ตรงกัน: แหล่ง [{first}] ระบุว่า "{firstText}" แต่แหล่ง [{second}] ระบุว่า "{secondText}"',
  en: 'Sources disagree: [{first}] says "{firstText}" but [{second}] says "{secondText}"',
};
const noFacts: Localized = {
  th: 'ค้นคว้าแล้วแต่ไม่พบข้อมูลที่เชื่อถือได้จากผลการค้นหาสำหรับคำถามนี้',
  en: 'The research found no reliable information in the search results for this question.',
};

export interface Synthesis {
  text: string;
  citations: Citation[];
}

function systemPrompt(language: Language): string {
  return [
    'Write a concise, well-organised answer to the question using only the numbered facts.',
    'After each sentence put the number of the source it relies on in square brackets, like [2].',
    'Do not write URLs or a list of sources.',
    'If sources disagree on a figure, say so and give each figure with its source number; do not pick one.',
    language === 'th' ? 'Answer in Thai.' : 'Answer in English.',
  ].join(' ');
}

/** Sources in order of first appearance among the facts; the prompt numbers them 1..n. */
export function sourcesOf(facts: readonly Fact[]): Source[] {
  const seen = new Map<string, Source>();
  for (const fact of facts) if (!seen.has(fact.url)) seen.set(fact.url, { url: fact.url, title: fact.title });
  return [...seen.values()];
}

export function buildSynthesisPrompt(
  question: string,
  date: string,
  facts: readonly Fact[],
  sources: readonly Source[],
  conflicts: readonly FigureConflict[],
): string {
  const numberOf = (url: string) => sources.findIndex((source) => source.url === url) + 1;
  const listed = facts.map((fact) => `[${numberOf(fact.url)}] ${fact.text}`).join('\n');
  const disputes = conflicts.map(
    (conflict) => `- [${numberOf(conflict.first.url)}] "${conflict.first.text}" vs [${numberOf(conflict.second.url)}] "${conflict.second.text}"`,
  );
  const conflictPart = disputes.length > 0 ? `\n\nConflicting figures (report both):\n${disputes.join('\n')}` : '';
  return `Today: ${date}\nQuestion: ${question}\n\nFacts:\n${listed}${conflictPart}`;
}

function mentionsBoth(text: string, conflict: FigureConflict): boolean {
  const figures = new Set(extractFigures(text));
  return figures.has(conflict.firstFigure) && figures.has(conflict.secondFigure);
}

function factList(facts: readonly Fact[], sources: readonly Source[]): string {
  return facts
    .slice(0, 20)
    .map((fact) => `- ${fact.text} [${sources.findIndex((source) => source.url === fact.url) + 1}]`)
    .join('\n');
}

/** Turns the model's answer (or, failing that, the fact list) into text with code-numbered citations. */
export function finishSynthesis(answer: string, facts: readonly Fact[], conflicts: readonly FigureConflict[], language: Language): Synthesis {
  if (facts.length === 0) return { text: say(noFacts, language), citations: [] };
  const sources = sourcesOf(facts);
  const numbering = new CitationNumbering(sources);
  const draft = answer.trim() === '' ? factList(facts, sources) : answer;
  let text = renumberMarkers(draft, numbering);
  if (text === '') text = renumberMarkers(factList(facts, sources), numbering);
  // No usable markers at all: keep the text and cite every source, in fact order.
  if (numbering.used === 0) for (let index = 0; index < sources.length; index += 1) numbering.numberFor(index);
  const notes = conflicts
    .filter((conflict) => !mentionsBoth(text, conflict))
    .map((conflict) =>
      say(conflictNote, language, {
        first: numbering.numberFor(sources.findIndex((source) => source.url === conflict.first.url)) ?? '?',
        second: numbering.numberFor(sources.findIndex((source) => source.url === conflict.second.url)) ?? '?',
        firstText: conflict.first.text,
        secondText: conflict.second.text,
      }),
    );
  if (notes.length > 0) text = `${text}\n\n${notes.join('\n')}`;
  return { text, citations: numbering.citations() };
}

export async function synthesize(
  question: string,
  date: string,
  facts: readonly Fact[],
  conflicts: readonly FigureConflict[],
  language: Language,
  services: { complete: TextCompleter; signal: AbortSignal; log: Logger },
): Promise<Synthesis> {
  // Nothing to write up, or the turn is over: the fact list needs no model call.
  if (facts.length === 0 || services.signal.aborted) return finishSynthesis('', facts, conflicts, language);
  let answer = '';
  try {
    answer = await services.complete({
      system: systemPrompt(language),
      messages: [{ role: 'user', content: buildSynthesisPrompt(question, date, facts, sourcesOf(facts), conflicts) }],
      maxTokens: 1200,
      signal: services.signal,
    });
  } catch (error) {
    logFailure(services.log, 'warn', {}, 'deep_research: synthesis call failed; answering with the fact list', error);
  }
  return finishSynthesis(answer, facts, conflicts, language);
}
