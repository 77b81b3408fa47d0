import type { Citation, GuardEvent, TurnRecord } from '../../src/shared/types.js';
import { saysNothingFound } from './source-nothing-found.js';
import { passagesByLabel } from './source-passages.js';
import { contentTokens, type ContentTokens } from './source-words.js';

// Knowledge-base citations only for the passages the answer used. An answer that says it found nothing cites no
// passage; otherwise a passage is cited when the answer shares with it at least two content words that the
// question does not already have (a restated question matches every retrieved passage), or a number, beyond what
// the passages already kept explain. A citation
// whose passage text cannot be found is kept as before. Web citations (with a URL) are left alone: their results
// are often in another language than the answer, so shared words say little there.

const minimumSharedWords = 2;
// "1. …" list numbering in the answer is no figure from a passage.
const listNumber = /^[ \t]{0,8}\d{1,3}[.)][ \t]/gm;

export interface UsedCitations {
  citations: Citation[];
  events: GuardEvent[];
}

/** What the answer has from this passage: shared content words the question lacks, and shared numbers ("#12"). */
function evidence(answer: ContentTokens, passage: ContentTokens, question: ContentTokens): Set<string> {
  const shared = new Set<string>();
  for (const word of answer.words) if (passage.words.has(word) && !question.words.has(word)) shared.add(word);
  for (const figure of answer.numbers) if (passage.numbers.has(figure)) shared.add(`#${figure}`);
  return shared;
}

/**
 * The labels whose passages the answer used. Thai segments into short words ("หัวหน้า|งาน|ล่วง|หน้า"), so two
 * passages on one topic share some by chance: the passage with the most evidence goes first, and each further one
 * needs evidence of its own that the passages already kept do not explain.
 */
function usedLabels(found: readonly { label: string; evidence: Set<string> }[]): Set<string> {
  const explained = new Set<string>();
  const used = new Set<string>();
  for (const { label, evidence: shared } of [...found].sort((left, right) => right.evidence.size - left.evidence.size)) {
    const novel = [...shared].filter((item) => !explained.has(item));
    if (novel.some((item) => item.startsWith('#')) || novel.length >= minimumSharedWords) {
      used.add(label);
      shared.forEach((item) => explained.add(item));
    }
  }
  return used;
}

export function citationsTheAnswerUsed(answer: string, record: TurnRecord, citations: readonly Citation[]): UsedCitations {
  const labels = citations.filter((citation) => citation.url === undefined).map((citation) => citation.label);
  if (labels.length === 0) return { citations: [...citations], events: [] };
  const passages = passagesByLabel([...record.toolCalls.map((call) => call.result), ...record.contextPassages], labels);
  if (saysNothingFound(answer, [...passages.values()])) {
    const kept = citations.filter((citation) => citation.url !== undefined);
    const reason = `the answer says nothing was found: ${labels.length} knowledge-base source(s) not listed`;
    return { citations: kept, events: [{ guard: 'sources', action: 'rewrite', reason }] };
  }
  const answerTokens = contentTokens(answer.replace(listNumber, ''));
  const questionTokens = contentTokens(record.question);
  const found = labels.flatMap((label) => {
    const passage = passages.get(label);
    return passage === undefined ? [] : [{ label, evidence: evidence(answerTokens, contentTokens(passage), questionTokens) }];
  });
  const used = usedLabels(found);
  const unused = new Set(found.filter(({ label }) => !used.has(label)).map(({ label }) => label));
  if (unused.size === 0) return { citations: [...citations], events: [] };
  const reason = `${unused.size} knowledge-base source(s) the answer shares no content with: not listed`;
  return {
    citations: citations.filter((citation) => citation.url !== undefined || !unused.has(citation.label)),
    events: [{ guard: 'sources', action: 'rewrite', reason }],
  };
}
