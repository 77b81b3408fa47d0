import type { InboundMessage } from '../shared/types.js';
import type { LaterMessage, MessageReplies } from './reply-journal.js';

// A burst becomes one turn ("พี่แสง", "ช่วยหน่อย", "ดูรูปนี้ให้ที" typed as three messages get one answer; docs/architecture.md,
// "Work"). When a question's turn starts, the questions of the same sender waiting right behind it, each within
// BURST_WINDOW_MS of the one before, join it: texts in order, attachments in order, one answer replying to the last.
//
// Exactly once, with the mechanism of missed-messages.ts: each follower gets the empty `coveredReply` as its answer
// (it then completes without a send), written just before the joined answer is stored. A crash before the covers
// runs the same merge again. A crash between the covers and the answer's store runs it again too: a covered
// follower can only have been covered by this merge (a conversation runs in order), so covered followers at the
// front always join, and the criteria below are fixed per message (sender, timestamps, text), so the run is the
// same — or longer, when more of the burst arrived meanwhile. Once the answer is stored, the followers complete
// silently and the stored answer is delivered as stored.

/** A burst joins at most this many messages and this many characters of text (well under MAX_MESSAGE_CHARS). */
export const burstLimits = { messages: 10, chars: 4_000 };

/**
 * Telegram's timestamps are whole seconds (the rest cut off): a message stamped on a whole second may have been
 * sent up to 999 ms later, so the wait for what follows counts from the end of that second. Gaps between two
 * messages are compared as stamped (both cut the same way).
 */
const wholeSecondSlackMs = 999;

export interface BurstSettings {
  /** BURST_WINDOW_MS: the longest gap between two messages of a burst; 0 turns bursts off. */
  windowMs: number;
  now(): number;
  /** Resolves after about `ms` (a timer in the app; tests resolve it themselves). */
  wait(ms: number): Promise<void>;
}

export interface BurstOptions {
  settings: BurstSettings;
  /** Whether a waiting message would run a turn of its own (a question to the bot: not a command, not chatter). */
  isQuestion(message: InboundMessage): boolean;
  /** An earlier attempt ran: followers it covered join even when bursts are now off (the setting changed). */
  resumed: boolean;
  /** MAX_MESSAGE_CHARS: a joined text stays within it (and within `burstLimits.chars`). */
  maxChars?: number;
}

export interface Burst {
  /** The first message carrying every text (newline-separated) and attachment of the burst, in order. */
  message: InboundMessage;
  /** The newest message of the burst: the answer replies to it. */
  last: InboundMessage;
  /** Stores each follower's empty answer (not already covered); call right before the joined answer is stored. */
  cover(): Promise<void>;
}

const at = (message: InboundMessage) => message.receivedAt.getTime();

/** The followers that join `first`: the longest run from the front that fits (see the top of the file). */
function runOf(first: InboundMessage, waiting: readonly LaterMessage[], options: BurstOptions): LaterMessage[] {
  const { windowMs } = options.settings;
  const run: LaterMessage[] = [];
  let previous = first;
  const maxChars = Math.min(burstLimits.chars, options.maxChars ?? Infinity);
  let chars = first.text.length;
  for (const later of waiting) {
    const next = later.message;
    const fits =
      windowMs > 0 &&
      run.length + 1 < burstLimits.messages &&
      chars + 1 + next.text.length <= maxChars &&
      next.sender.id === first.sender.id &&
      options.isQuestion(next) &&
      // Both ways: timestamps of one chat are not always in order (and an old backlog must not join a fresh one).
      Math.abs(at(next) - at(previous)) <= windowMs;
    // Only this merge covers a message behind it (a conversation runs in order): a covered one is of this burst.
    if (!later.answered && !fits) break;
    run.push(later);
    previous = next;
    chars += 1 + next.text.length;
  }
  return run;
}

/** The joined question: the first message's identity (its id names the turn across attempts), everyone's content. */
function joined(first: InboundMessage, run: readonly LaterMessage[]): InboundMessage {
  const all = [first, ...run.map((later) => later.message)];
  const text = all
    .map((message) => message.text.trim())
    .filter((part) => part !== '')
    .join('\n');
  // The first quote of the burst: it is what the question that follows it is about.
  const quoted = all.find((message) => message.quoted !== undefined)?.quoted;
  return {
    ...first,
    text,
    attachments: all.flatMap((message) => message.attachments),
    mentionsBot: all.some((message) => message.mentionsBot),
    repliesToBot: all.some((message) => message.repliesToBot),
    ...(quoted ? { quoted } : {}),
  };
}

/**
 * The burst `first` starts, or undefined when it is alone. An unanswered message first waits (a debounce) until
 * the window after the newest message of its burst has passed, so a burst typed while the queue is idle is caught;
 * the wait ends early when something else follows (another sender, a command) or the burst is full. An answered
 * message (resumed after its answer was stored) does not wait: its burst is only read, to reply to its last message.
 */
export async function takeBurst(first: InboundMessage, replies: MessageReplies, options: BurstOptions): Promise<Burst | undefined> {
  const { windowMs, now, wait } = options.settings;
  if (windowMs <= 0 && !options.resumed) return undefined;
  const look = async () => {
    const waiting = await replies.later(burstLimits.messages);
    const run = runOf(first, waiting, options);
    return { run, closed: waiting.length > run.length || run.length + 1 >= burstLimits.messages };
  };
  let { run, closed } = await look();
  while (!replies.answered && !closed && windowMs > 0) {
    const newest = run.at(-1)?.message ?? first;
    const slack = at(newest) % 1000 === 0 ? wholeSecondSlackMs : 0;
    const left = at(newest) + slack + windowMs - now();
    if (left <= 0) break;
    // Bounded: never longer than the window after the newest message (a future timestamp waits no longer), and
    // once a wait brought nothing new the burst is over: at most one wait per message of it, whatever the clock says.
    await wait(Math.min(left, windowMs + slack));
    const before = run.length;
    ({ run, closed } = await look());
    if (run.length === before) break;
  }
  // Answered: its followers were all covered before its answer was stored; any others came later, on their own.
  const open = run.findIndex((later) => !later.answered);
  if (replies.answered && open >= 0) run = run.slice(0, open);
  const last = run.at(-1)?.message;
  if (!last) return undefined;
  return {
    message: joined(first, run),
    last,
    cover: async () => {
      for (const later of run) if (!later.answered) await later.cover();
    },
  };
}
