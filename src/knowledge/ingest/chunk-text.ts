import { segmentsOf } from '../../shared/segments.js';
import { normalizeText } from '../ranking/normalize-text.js';

// Chunks for retrieval. Thai marks neither sentence ends nor word breaks, so boundaries are tried from the
// strongest down: paragraph, line, sentence (Latin punctuation, via ICU), space (Thai phrase break), ICU word,
// and only then a hard cut. Consecutive chunks share a short overlap so a fact split across them is found.

export interface ChunkOptions {
  /** A chunk never exceeds this many characters. */
  maxCharacters: number;
  /** A chunk is closed once it reaches this size and the next piece does not fit. */
  targetCharacters: number;
  /** Characters of the previous chunk repeated at the start of the next. */
  overlapCharacters: number;
}

export const defaultChunkOptions: ChunkOptions = { maxCharacters: 1200, targetCharacters: 1000, overlapCharacters: 150 };

export interface TextChunk {
  /** 0-based order of the chunk in its document. */
  position: number;
  text: string;
}

interface Piece {
  text: string;
  /** What joins this piece to the one before it. */
  separator: string;
}

const sentenceSegmenter = new Intl.Segmenter('th', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('th', { granularity: 'word' });

type Splitter = { split(text: string): string[]; separator: string };

const levels: Splitter[] = [
  { split: (text) => text.split('\n\n'), separator: '\n\n' },
  { split: (text) => text.split('\n'), separator: '\n' },
  { split: (text) => Array.from(segmentsOf(sentenceSegmenter, text), (part) => part.segment), separator: '' },
  { split: (text) => text.split(' '), separator: ' ' },
  { split: (text) => Array.from(segmentsOf(wordSegmenter, text), (part) => part.segment), separator: '' },
];

function hardCut(text: string, size: number): string[] {
  const characters = Array.from(text);
  const parts: string[] = [];
  for (let start = 0; start < characters.length; start += size) parts.push(characters.slice(start, start + size).join(''));
  return parts;
}

/** Breaks text into pieces no longer than `max`, each remembering the separator it had in the text. */
function toPieces(text: string, max: number, level: number, separator: string, into: Piece[]): void {
  if (text.length <= max) {
    if (text.trim()) into.push({ text, separator });
    return;
  }
  const splitter = levels[level];
  const parts = splitter ? splitter.split(text) : hardCut(text, max);
  if (parts.length <= 1 && splitter) {
    toPieces(text, max, level + 1, separator, into);
    return;
  }
  parts.forEach((part, index) => {
    const partSeparator = index === 0 ? separator : (splitter?.separator ?? '');
    toPieces(part, max, level + 1, partSeparator, into);
  });
}

function join(pieces: readonly Piece[]): string {
  return pieces
    .map((piece, index) => (index === 0 ? piece.text : piece.separator + piece.text))
    .join('')
    .trim();
}

/** The tail of a closed chunk that opens the next one: whole trailing pieces, else trailing words. */
function overlapOf(pieces: readonly Piece[], overlap: number): Piece[] {
  const tail: Piece[] = [];
  let length = 0;
  for (let index = pieces.length - 1; index > 0; index -= 1) {
    const piece = pieces[index];
    if (!piece || length + piece.text.length + piece.separator.length > overlap) break;
    tail.unshift(piece);
    length += piece.text.length + piece.separator.length;
  }
  if (tail.length > 0 || overlap <= 0) return tail;
  const last = pieces[pieces.length - 1];
  if (!last) return [];
  // Only the end matters: segmenting a little more than the overlap keeps this cheap on long pieces.
  const words = Array.from(wordSegmenter.segment(last.text.slice(-(overlap + 32))), (part) => part.segment);
  let text = '';
  for (let index = words.length - 1; index >= 0; index -= 1) {
    const word = words[index] ?? '';
    if (text.length + word.length > overlap) break;
    text = word + text;
  }
  return text.trim() ? [{ text: text.trimStart(), separator: '' }] : [];
}

/** Splits a document's text into overlapping chunks of about `targetCharacters`. */
export function chunkText(text: string, options: ChunkOptions = defaultChunkOptions): TextChunk[] {
  const normalized = normalizeText(text);
  if (!normalized) return [];
  const pieces: Piece[] = [];
  toPieces(normalized, Math.max(1, options.maxCharacters - options.overlapCharacters - 2), 0, '', pieces);

  const chunks: TextChunk[] = [];
  let current: Piece[] = [];
  let currentLength = 0;
  let carried = 0;
  const close = (): void => {
    chunks.push({ position: chunks.length, text: join(current) });
    current = overlapOf(current, options.overlapCharacters);
    carried = current.length;
    currentLength = join(current).length;
  };
  for (const piece of pieces) {
    const added = (current.length > 0 ? piece.separator.length : 0) + piece.text.length;
    if (current.length > carried && (currentLength + added > options.maxCharacters || currentLength >= options.targetCharacters)) close();
    current.push(piece);
    currentLength += (current.length > 1 ? piece.separator.length : 0) + piece.text.length;
  }
  if (current.length > carried) chunks.push({ position: chunks.length, text: join(current) });
  return chunks;
}
