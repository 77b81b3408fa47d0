import { createHash } from 'node:crypto';

// The text of images already read, by content: the same photo sent again, or remembered for a later question in
// the chat, is not read twice. Only successful reads are kept (a time-out may pass next time). Least recently used
// goes first when either bound is reached; a Map keeps insertion order, and a hit is moved to the end.

export interface OcrCacheOptions {
  maxEntries: number;
  /** Sum of the kept texts' lengths. */
  maxCharacters: number;
}

export interface OcrCache {
  get(key: string): string | undefined;
  set(key: string, text: string): void;
  readonly size: number;
}

/** sha256 over the image bytes and the language string: the same picture read as "eng" is another entry. */
export function ocrCacheKey(bytes: Uint8Array, languages: string): string {
  return createHash('sha256').update(bytes).update('\0').update(languages).digest('hex');
}

export function createOcrCache(options: OcrCacheOptions): OcrCache {
  const entries = new Map<string, string>();
  let characters = 0;
  const remove = (key: string): void => {
    const text = entries.get(key);
    if (text === undefined) return;
    entries.delete(key);
    characters -= text.length;
  };
  return {
    get(key) {
      const text = entries.get(key);
      if (text === undefined) return undefined;
      entries.delete(key);
      entries.set(key, text);
      return text;
    },
    set(key, text) {
      remove(key);
      // A text bigger than the whole budget would only push everything else out and then go itself.
      if (text.length > options.maxCharacters || options.maxEntries < 1) return;
      entries.set(key, text);
      characters += text.length;
      for (const oldest of entries.keys()) {
        if (entries.size <= options.maxEntries && characters <= options.maxCharacters) break;
        remove(oldest);
      }
    },
    get size() {
      return entries.size;
    },
  };
}
