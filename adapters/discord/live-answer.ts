import { DiscordAPIError, Routes, type REST } from 'discord.js';
import { LiveMessage, type LiveCallOutcome, type LiveMessageSender } from '../common/live-message.js';
import type { Scheduler } from '../common/scheduler.js';
import type { LiveAnswer, LiveAnswerStart } from '../../src/shared/channel.js';
import { describeError, errorSummary } from '../../src/shared/describe-error.js';
import type { Logger } from '../../src/shared/log.js';
import { stepStatusText } from '../../src/shared/step-labels.js';
import type { Language, TurnStep } from '../../src/shared/types.js';
import { noPings } from './delivery.js';
import { InteractionTokenGone, type InteractionReply } from './interaction-reply.js';
import { livePreviewText } from './live-preview-text.js';
import { previewFailure } from './preview-rest.js';

// A Discord answer shown while it is written (docs/architecture.md, "Streaming answers"): one message edited in
// place — a slash command's deferred reply while its token lives, else a channel message replying to the user's
// message — at most one call a second (Discord allows five edits per five seconds per channel). Every call goes
// through the preview client (preview-rest.ts), which skips a long rate-limit wait instead of taking it. The final
// reply completes the same message (responder.ts, `DeliveryJournal.liveMessage`).

/** Discord's pace for edits of one channel: five per five seconds. */
export const discordLiveIntervalMs = 1_000;

/** The live message's id while it is the deferred reply: never remembered, the final reply edits it anyway. */
export const originalMessage = '@original';

export interface DiscordLiveOptions {
  /** The preview client (preview-rest.ts). */
  rest: REST;
  channelId: string;
  /** The user's message in a server: the live message replies to it, as an answer's first part does. */
  replyToMessageId: string | undefined;
  /** The slash command's deferred reply over the preview client, while its token lives; `drop` once it is gone. */
  interaction?: { current(): InteractionReply | undefined; drop(): void };
  /** An answer meant for the caller only (ephemeral): never previewed in the channel. */
  privateAnswer: boolean;
  scheduler: Scheduler;
  logger: Logger;
  language: Language;
}

export function discordLiveAnswer(start: LiveAnswerStart, options: DiscordLiveOptions): LiveAnswer {
  const message = new LiveMessage<string>({
    sender: liveSender(options),
    scheduler: options.scheduler,
    minIntervalMs: discordLiveIntervalMs,
    ...(start.earlier === undefined ? {} : { earlier: start.earlier }),
    remember: (id) => (id === originalMessage ? Promise.resolve() : start.remember(id)),
  });
  let text = '';
  let status: string | undefined;
  const refresh = (): void => {
    // A private answer is previewed in its deferred reply only, never in the channel: no token, no preview.
    if (options.privateAnswer && !options.interaction?.current()) return;
    try {
      const preview = livePreviewText(text, status);
      if (preview !== '') message.update(preview);
    } catch (error) {
      noteFailure(options, error);
    }
  };
  return {
    show: (shown) => {
      text = shown;
      status = undefined;
      refresh();
    },
    status: (step: TurnStep) => {
      status = stepStatusText(step, options.language);
      refresh();
    },
    end: async () => {
      await message.end();
    },
  };
}

function liveSender(options: DiscordLiveOptions): LiveMessageSender<string> {
  const { rest, channelId } = options;
  const post = async (text: string): Promise<{ id: string } | { retryAfterMs: number }> => {
    if (options.privateAnswer) throw new Error('discord: a private answer is not previewed in the channel');
    const reference = options.replyToMessageId ? { message_reference: { message_id: options.replyToMessageId, fail_if_not_exists: false } } : {};
    try {
      const sent = (await rest.post(Routes.channelMessages(channelId), { body: { content: text, allowed_mentions: noPings, ...reference } })) as { id: string };
      return { id: sent.id };
    } catch (error) {
      const failure = previewFailure(error);
      if (typeof failure !== 'object') throw error;
      return failure;
    }
  };
  /** The deferred reply edited; 'gone' once its token is (the message then moves to the channel). */
  const editOriginal = async (text: string): Promise<LiveCallOutcome> => {
    const interaction = options.interaction?.current();
    if (!interaction) return 'gone';
    try {
      await interaction.editOriginal(text);
      return 'shown';
    } catch (error) {
      if (!(error instanceof InteractionTokenGone)) return previewFailure(error);
      options.logger.info({ channelId }, 'discord interaction token gone: the live answer moves to the channel');
      options.interaction?.drop();
      return 'gone';
    }
  };
  return {
    send: async (text) => {
      if (options.interaction?.current()) {
        const outcome = await editOriginal(text);
        if (outcome === 'shown') return { id: originalMessage };
        if (outcome !== 'gone') return outcome;
      }
      return post(text);
    },
    edit: async (id, text) => {
      if (id === originalMessage) return editOriginal(text);
      try {
        await rest.patch(Routes.channelMessage(channelId, id), { body: { content: text, allowed_mentions: noPings } });
        return 'shown';
      } catch (error) {
        return previewFailure(error);
      }
    },
    onError: (error) => noteFailure(options, error),
  };
}

/** Best effort: the kind of failure at info, never the text; the detail at debug. */
function noteFailure(options: Pick<DiscordLiveOptions, 'channelId' | 'logger'>, error: unknown): void {
  const code = error instanceof DiscordAPIError ? { code: error.code } : {};
  options.logger.info({ channelId: options.channelId, ...errorSummary(error), ...code }, 'discord live answer update failed');
  options.logger.debug({ channelId: options.channelId, error: describeError(error) }, 'discord live answer update failed: detail');
}
