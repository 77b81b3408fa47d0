import type { LiveAnswer, LiveAnswerStart, Responder } from '../shared/channel.js';
import type { Logger } from '../shared/log.js';
import type { TurnStep } from '../shared/types.js';

// A turn's answer shown while it is written (docs/architecture.md, "Streaming answers"), where the platform can and
// STREAM_PLATFORMS says so. The agent hands guard-safe previews (agent/streaming/); each passes the outbound DLP once
// more here, like everything that leaves. Tool steps show their status ("กำลังค้นเว็บ…") in the same place, and a
// model step after a tool shows "กำลังคิด…". Best effort: a failure here never touches the turn.

/** How long the final reply waits for the live answer's last update to settle. */
const liveEndBoundMs = 15_000;

export interface TurnLive {
  preview(text: string): void;
  step(step: TurnStep): void;
  /** Before the final reply is sent: the last update settles, nothing is shown after. */
  end(): Promise<void>;
}

export interface TurnLiveOptions {
  responder: Responder;
  start: LiveAnswerStart;
  /** The outbound DLP for this conversation's live text (`Outbound.liveCheck`). */
  allows: (text: string) => boolean;
  log: Logger;
  /** For log lines: ids, never text. */
  logBase: Record<string, unknown>;
}

export function startTurnLive(options: TurnLiveOptions): TurnLive | undefined {
  const { log, logBase } = options;
  let live: LiveAnswer | undefined;
  try {
    live = options.responder.live?.(options.start);
  } catch (error) {
    log.warn({ ...logBase, error: String(error) }, 'live answer could not start');
  }
  if (!live) return undefined;
  const shown = live;
  let afterTool = false;
  let blocked = false;
  const safely = (action: () => void) => {
    try {
      action();
    } catch (error) {
      log.warn({ ...logBase, error: String(error) }, 'live answer update failed');
    }
  };
  return {
    preview: (text) => {
      if (blocked || text === '') return;
      if (!options.allows(text)) {
        // The agent's own scan let it through: the outbound one has the last word, and the final reply replaces it.
        blocked = true;
        log.warn({ ...logBase }, 'live answer stopped by the outbound DLP');
        return;
      }
      safely(() => shown.show(text));
    },
    step: (step) => {
      if (step.kind === 'tool' || afterTool) safely(() => shown.status(step));
      afterTool = step.kind === 'tool';
    },
    end: async () => {
      // A platform call that never answers must not hold the final reply back: past the bound it goes out anyway.
      let timer: NodeJS.Timeout | undefined;
      const bound = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), liveEndBoundMs);
        timer.unref();
      });
      try {
        if ((await Promise.race([shown.end(), bound])) === 'late')
          log.warn({ ...logBase, waitedMs: liveEndBoundMs }, 'live answer did not settle: final reply sent');
      } catch (error) {
        log.warn({ ...logBase, error: String(error) }, 'live answer did not end cleanly');
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
