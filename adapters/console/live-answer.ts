import type { LiveAnswer } from '../../src/shared/channel.js';
import type { Language } from '../../src/shared/types.js';
import { LiveMessage } from '../common/live-message.js';
import { timerScheduler, type Scheduler } from '../common/scheduler.js';
import { capConsoleText } from '../format/index.js';
import { renderTerminalText, type TerminalTextOptions } from './render.js';

// The console's live answer (a terminal only): the growing answer rendered like the reply and drawn in place above
// the status line (screen.ts `showLive`); the final reply rubs it out and is printed as always. The step is already
// on the status line, so `status` shows nothing more.

/**
 * Each preview renders the whole answer again: ten redraws a second look continuous and keep a long answer's
 * re-rendering cheap. Previews given meanwhile collapse into the newest (LiveMessage).
 */
export const consolePreviewIntervalMs = 100;

export interface LiveScreen {
  showLive(rendered: string): void;
  textOptions?(): TerminalTextOptions;
}

export function consoleLiveAnswer(screen: LiveScreen, language: Language, scheduler: Scheduler = timerScheduler): LiveAnswer {
  const draw = (markdown: string): void => {
    // A blank line first, as the reply has: the answer starts below the question.
    screen.showLive(`\n${renderTerminalText(capConsoleText(markdown, language), screen.textOptions?.() ?? { color: false })}\n`);
  };
  const message = new LiveMessage<true>({
    sender: {
      send: (markdown) => {
        draw(markdown);
        return Promise.resolve({ id: true });
      },
      edit: (_id, markdown) => {
        draw(markdown);
        return Promise.resolve('shown');
      },
      onError: () => undefined,
    },
    scheduler,
    minIntervalMs: consolePreviewIntervalMs,
  });
  return {
    show: (markdown) => message.update(markdown),
    status: () => undefined,
    end: async () => {
      await message.end();
    },
  };
}
