import { DiscordAPIError, MessageFlags, RESTJSONErrorCodes, Routes, type REST } from 'discord.js';
import { noPings } from './delivery.js';

// Answering a slash command through its interaction token (docs/platforms.md §1.4): the deferred reply is edited into
// the first part, the rest follow up. The token works for 15 minutes; these calls carry no bot authorization.

/** A token that expired or an interaction Discord no longer knows: answer in the channel instead. */
const goneCodes = new Set<number>([RESTJSONErrorCodes.UnknownWebhook, RESTJSONErrorCodes.InvalidWebhookToken, RESTJSONErrorCodes.UnknownInteraction]);

export class InteractionTokenGone extends Error {
  override readonly name = 'InteractionTokenGone';
}

export interface InteractionAddress {
  applicationId: string;
  token: string;
  /** Admin replies are seen by the caller only. */
  ephemeral: boolean;
}

export class InteractionReply {
  constructor(
    private readonly rest: REST,
    private readonly address: InteractionAddress,
  ) {}

  /** Replaces the deferred "thinking…" message (or the progress shown there). */
  async editOriginal(content: string): Promise<void> {
    const { applicationId, token } = this.address;
    await this.call(() =>
      this.rest.patch(Routes.webhookMessage(applicationId, token, '@original'), { body: { content, allowed_mentions: noPings }, auth: false }),
    );
  }

  async followUp(content: string | undefined, file?: { name: string; data: Buffer }): Promise<void> {
    const { applicationId, token, ephemeral } = this.address;
    const body = { ...(content === undefined ? {} : { content }), allowed_mentions: noPings, ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) };
    await this.call(() =>
      this.rest.post(Routes.webhook(applicationId, token), {
        body,
        query: new URLSearchParams({ wait: 'true' }),
        auth: false,
        ...(file ? { files: [file] } : {}),
      }),
    );
  }

  private async call(request: () => Promise<unknown>): Promise<void> {
    try {
      await request();
    } catch (error) {
      if (error instanceof DiscordAPIError && goneCodes.has(Number(error.code)))
        throw new InteractionTokenGone(`interaction token no longer valid (${error.code})`);
      throw error;
    }
  }
}
