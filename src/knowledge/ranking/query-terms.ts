// Which query tokens go to the full-text index. Question words and polite particles say nothing about the
// answer, yet are rare in documents and would get a high IDF. Among the rest, the rarest terms are kept while
// their posting lists stay within a budget: very common terms add almost nothing to BM25 but most of its cost.

export const queryStopWords: ReadonlySet<string> = new Set([
  // Thai question words
  'อะไร',
  'ใคร',
  'ไหน',
  'ที่ไหน',
  'ใด',
  'อันไหน',
  'เท่าไร',
  'เท่าไหร่',
  'อย่างไร',
  'ยังไง',
  'ทำไม',
  'เพราะอะไร',
  'เมื่อไร',
  'เมื่อไหร่',
  'กี่',
  'ไหม',
  'มั้ย',
  'หรือไม่',
  'หรือเปล่า',
  'บ้าง',
  'แบบไหน',
  // Thai particles and requests
  'ครับ',
  'ค่ะ',
  'คะ',
  'จ้ะ',
  'จ้า',
  'นะ',
  'น่ะ',
  'หน่อย',
  'ช่วย',
  'บอก',
  'ขอ',
  'ทราบ',
  'อยาก',
  'รู้',
  // English question words and articles
  'what',
  'who',
  'whom',
  'which',
  'where',
  'when',
  'why',
  'how',
  'the',
  'a',
  'an',
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'please',
  'tell',
  'me',
]);

/** Sum of posting-list lengths a query may touch (≈ chunks scored); keeps p95 low on large knowledge bases. */
export const defaultPostingBudget = 12_000;

export interface TermFrequency {
  term: string;
  /** Chunks of the knowledge base that contain the term. */
  chunks: number;
}

export interface QueryTerms {
  /** What FTS5 matches on: the rarest terms within the posting budget (the rarest one always). */
  match: TermFrequency[];
  /** What the candidates are scored on: every content term present in the knowledge base. */
  scoring: TermFrequency[];
}

/** Unique tokens minus stop words (unless nothing else is left) and minus terms absent from the KB, rarest first. */
export function selectQueryTerms(tokens: readonly string[], frequencies: ReadonlyMap<string, number>, postingBudget: number): QueryTerms {
  const unique = [...new Set(tokens)];
  const content = unique.filter((token) => !queryStopWords.has(token));
  const scoring = (content.length > 0 ? content : unique)
    .map((term) => ({ term, chunks: frequencies.get(term) ?? 0 }))
    .filter((candidate) => candidate.chunks > 0)
    .sort((left, right) => left.chunks - right.chunks || left.term.localeCompare(right.term));
  const match: TermFrequency[] = [];
  let postings = 0;
  for (const candidate of scoring) {
    if (match.length > 0 && postings + candidate.chunks > postingBudget) break;
    match.push(candidate);
    postings += candidate.chunks;
  }
  return { match, scoring };
}

/** An FTS5 query matching any of the terms; tokens hold only letters, marks and digits, so quoting is safe. */
export function matchExpression(terms: readonly TermFrequency[]): string {
  return terms.map(({ term }) => `"${term}"`).join(' OR ');
}
