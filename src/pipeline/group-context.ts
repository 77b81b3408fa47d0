import type { Keyv } from 'keyv';
import { z } from 'zod';
import { pick, type Localized } from '../shared/i18n.js';
import { neutralizeSourceMarkers } from '../shared/source-markers.js';
import type { InboundMessage, Language } from '../shared/types.js';
import { cutAtGrapheme } from '../shared/grapheme-cut.js';
import { PerKeyChain } from '../shared/per-key-chain.js';
import type { RedisLists } from '../storage/redis-storage.js';
import { RedisEntryList } from '../storage/redis-entry-list.js';

// "สรุปที่คุยกันข้างบนให้หน่อย": when the bot is addressed in a group, the last few messages it received there without
// being addressed go into the newest user message (never the system prompt). They live in the cache store with a
// TTL, not in the history.
//
// Several bot processes (REDIS_URL) may handle one group's messages at once. The inbound worker runs a
// conversation's messages one at a time only within its process (per-process SQLite queue; a shared queue's
// conversation lease can lapse under a paused process), and the direct path (router.handle) records outside any
// queue. So with Redis the messages are a Redis list per group (src/storage/redis-entry-list.ts), appended in one MULTI: none
// is lost between processes. The keyv value with its in-process chain is the one-process store.

const heading: Localized = {
  th: 'ข้อความล่าสุดในแชตนี้ (ไม่ได้ถามบอท):',
  en: 'Recent messages in this chat (not addressed to the bot):',
};
const unnamedSpeaker: Localized = { th: 'ผู้ใช้', en: 'User' };

export const groupContextDefaults = {
  maxCharacters: 1500,
  maxMessageCharacters: 300,
  maxNameCharacters: 64,
  maxAgeSeconds: 24 * 3600,
};

export interface GroupContextOptions {
  /** A keyv namespace shared by every bot process (the `cache` one); keys start with `group-context:`. */
  store: Keyv;
  /** When set (REDIS_URL), the messages are a Redis list per group instead of the keyv value: see above. */
  redis?: RedisLists | undefined;
  /** GROUP_CONTEXT_MESSAGES: how many go with a question by default; 0 turns the feature off. */
  maxMessages: number;
  /** How many are kept per group, so a space's /settings may ask for more than the default (default: `maxMessages`). */
  keepMessages?: number;
  language: Language;
  now: () => Date;
  /** Older messages are not "the conversation above" any more. */
  maxAgeSeconds?: number;
  /** Bound on the whole block, heading included. */
  maxCharacters?: number;
  /** Bound on one stored text. */
  maxMessageCharacters?: number;
}

interface RecordedMessage {
  /** Epoch milliseconds of the injected clock. */
  at: number;
  messageId: string;
  name: string;
  text: string;
}

const recordedMessageSchema: z.ZodType<RecordedMessage> = z.object({ at: z.number(), messageId: z.string(), name: z.string(), text: z.string() });

export class GroupContext {
  // Read-modify-write on keyv is not atomic: one chain per conversation keeps two messages from losing one.
  private readonly chain = new PerKeyChain();
  private readonly list: RedisEntryList<RecordedMessage> | undefined;
  private readonly maxAgeMs: number;
  private readonly maxCharacters: number;
  private readonly maxMessageCharacters: number;

  constructor(private readonly options: GroupContextOptions) {
    this.maxAgeMs = (options.maxAgeSeconds ?? groupContextDefaults.maxAgeSeconds) * 1000;
    this.maxCharacters = options.maxCharacters ?? groupContextDefaults.maxCharacters;
    this.maxMessageCharacters = options.maxMessageCharacters ?? groupContextDefaults.maxMessageCharacters;
    if (options.redis) this.list = new RedisEntryList(options.redis, (stored) => recordedMessageSchema.safeParse(stored).data);
  }

  private get enabled(): boolean {
    return this.options.maxMessages > 0;
  }

  private get keep(): number {
    return Math.max(this.options.maxMessages, this.options.keepMessages ?? 0);
  }

  /** For a group message that did not address the bot: keeps its text (one line, capped) with the speaker's name. */
  async record(message: InboundMessage): Promise<void> {
    if (!this.enabled || message.chatKind !== 'group') return;
    const text = oneLine(message.text, this.maxMessageCharacters);
    if (text === '') return;
    const name = oneLine(message.sender.name, groupContextDefaults.maxNameCharacters) || pick(unnamedSpeaker, this.options.language);
    const key = storeKey(message);
    if (this.list) {
      // A re-delivered message is appended again and counted once when read (latestOfEach).
      await this.list.append(key, [{ at: this.options.now().getTime(), messageId: message.messageId, name, text }], {
        keep: this.keep,
        ttlMs: this.maxAgeMs,
      });
      return;
    }
    await this.chain.run(key, async () => {
      const now = this.options.now().getTime();
      // A re-delivered message replaces itself instead of appearing twice.
      const kept = (await this.load(key, now)).filter((entry) => entry.messageId !== message.messageId);
      kept.push({ at: now, messageId: message.messageId, name, text });
      await this.options.store.set(key, kept.slice(-this.keep), this.maxAgeMs);
    });
  }

  /**
   * For a group message that addressed the bot: the heading and one "- name: text" line per recent message, oldest
   * first, within `maxCharacters` (the oldest go first); undefined when off, in a direct chat, or when there is none.
   * `limit` and `language`: the space's /settings, when it chose them.
   */
  async contextFor(message: InboundMessage, choices: { limit?: number; language?: Language } = {}): Promise<string | undefined> {
    const limit = Math.min(choices.limit ?? this.options.maxMessages, this.keep);
    if (!this.enabled || message.chatKind !== 'group' || limit <= 0) return undefined;
    const key = storeKey(message);
    // Through the chain, so a message recorded just before this one is already there.
    const entries = this.list
      ? latestOfEach(this.young(await this.list.read(key), this.options.now().getTime()))
      : await this.chain.run(key, () => this.load(key, this.options.now().getTime()));
    const lines = entries
      .filter((entry) => entry.messageId !== message.messageId)
      .slice(-limit)
      .map((entry) => `- ${entry.name}: ${entry.text}`);
    return this.bounded(pick(heading, choices.language ?? this.options.language), lines);
  }

  private bounded(title: string, lines: string[]): string | undefined {
    let length = title.length + lines.reduce((sum, line) => sum + 1 + line.length, 0);
    while (lines.length > 1 && length > this.maxCharacters) length -= 1 + (lines.shift() ?? '').length;
    const [only] = lines;
    if (only === undefined) return undefined;
    if (length > this.maxCharacters) {
      const cut = cutAtGrapheme(only, this.maxCharacters - title.length - 1);
      return cut === '' ? undefined : `${title}\n${cut}`;
    }
    return [title, ...lines].join('\n');
  }

  private async load(key: string, now: number): Promise<RecordedMessage[]> {
    const stored = await this.options.store.get<RecordedMessage[]>(key);
    return Array.isArray(stored) ? this.young(stored, now) : [];
  }

  private young(stored: RecordedMessage[], now: number): RecordedMessage[] {
    return stored.filter((entry) => typeof entry.at === 'number' && now - entry.at < this.maxAgeMs);
  }
}

/** Each message id once, at the place of its last recording (as the keyv path replaces it). */
function latestOfEach(entries: RecordedMessage[]): RecordedMessage[] {
  return entries.filter((entry, index) => !entries.slice(index + 1).some((later) => later.messageId === entry.messageId));
}

function storeKey(message: InboundMessage): string {
  return `group-context:${message.conversationKey}`;
}

// User text must not fake the block's structure: one message is one line, and `[source:` markers are defused. The
// input is bounded before the regexes run (four times the cap leaves room for the whitespace they collapse).
function oneLine(text: string, maxLength: number): string {
  const bounded = cutAtGrapheme(text, maxLength * 4);
  return cutAtGrapheme(neutralizeSourceMarkers(bounded.replace(/[\s\p{Cc}]+/gu, ' ').trim()), maxLength);
}
