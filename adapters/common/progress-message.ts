// /research progress as one status message that is edited round by round, not one message per round. Updates that
// arrive while an edit is on its way collapse into the newest, so a slow or rate-limited chat gets fewer edits, not
// a backlog. Progress is best effort: a failure is logged by the sender and the next update tries again.

/** `Id`: how the platform names a message (Telegram a number, Discord a snowflake string). */
export interface ProgressSender<Id = number> {
  /** Posts the status message; its message id. */
  send(text: string): Promise<Id>;
  /** Edits it; 'gone' when the user deleted it (a new one is posted). "Not modified" counts as edited. */
  edit(messageId: Id, text: string): Promise<'edited' | 'gone'>;
  onError(error: unknown): void;
}

export class ProgressMessage<Id = number> {
  private messageId: Id | undefined;
  private wanted: string | undefined;
  private shown: string | undefined;
  private running: Promise<void> | undefined;
  private finished = false;

  constructor(private readonly sender: ProgressSender<Id>) {}

  /** Shows `text` (or a newer text given meanwhile); resolves when it is shown or has failed. */
  update(text: string): Promise<void> {
    if (this.finished) return Promise.resolve();
    this.wanted = text;
    // Started a tick later, so `running` is set before the loop can end and clear it.
    this.running ??= Promise.resolve().then(() => this.drain());
    return this.running;
  }

  /** Waits for the last update (showing `finalText` first, when given); later updates are ignored. */
  async done(finalText?: string): Promise<void> {
    if (finalText !== undefined) await this.update(finalText);
    else await this.running;
    this.finished = true;
  }

  /** The status message, once posted. */
  postedMessageId(): Id | undefined {
    return this.messageId;
  }

  /** Shows the newest text until nothing newer is wanted; `running` is cleared in the same step as that last check. */
  private async drain(): Promise<void> {
    try {
      while (this.wanted !== undefined && this.wanted !== this.shown) {
        const text = this.wanted;
        await this.show(text);
        this.shown = text;
      }
    } catch (error) {
      this.sender.onError(error);
    } finally {
      this.running = undefined;
    }
  }

  private async show(text: string): Promise<void> {
    if (this.messageId !== undefined && (await this.sender.edit(this.messageId, text)) === 'edited') return;
    this.messageId = await this.sender.send(text);
  }
}
