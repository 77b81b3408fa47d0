import { readFile } from 'node:fs/promises';
import { releasesSecretPart } from '../dlp/configured-secret-parts.js';
import { crossTurnKinds, mayCompleteOne, runsToRemember } from '../dlp/released-fragments.js';
import { dlpNotice, scanForCredentials } from '../dlp/scan.js';
import type { Logger } from '../shared/log.js';
import type { Language, Reply } from '../shared/types.js';
import type { ReleasedRecord } from './released-record.js';

const scannedFileBytes = 2 * 1024 * 1024;

/** Kinds of what a text would leak beyond the one-text scan: a piece of a configured secret, a split credential. */
const secretPart = 'configured-secret-part';
const acrossAnswers = (kind: string) => `${kind} (across answers)`;

export interface OutboundOptions {
  secrets: readonly string[];
  language: Language;
  log: Logger;
  /** What earlier answers of each conversation released that could start a credential; absent: no memory. */
  released?: Pick<ReleasedRecord, 'earlier' | 'remember'>;
}

/**
 * The one choke point for everything Saeng sends: answers, errors, command replies, progress notes and file
 * contents. A message that carries a credential — whole, in any form the scanner reads, a piece of one of Saeng's own
 * secrets, or the rest of one an earlier answer of the conversation started — is blocked whole and replaced by a notice.
 */
export class Outbound {
  constructor(private readonly options: OutboundOptions) {}

  /** `language`: the notice's, when the message's space chose one (else BOT_LANGUAGE). */
  async prepare(reply: Reply, conversationKey: string, language = this.options.language): Promise<Reply> {
    const { secrets, released, log } = this.options;
    const texts = [reply.text, ...(await Promise.all(reply.files.map((file) => this.readForScan(file.path))))];
    // The record is read only when a text could complete a credential: most replies and every progress note skip it.
    const earlier = released && texts.some(mayCompleteOne) ? await released.earlier(conversationKey) : [];
    const kinds = new Set<string>();
    for (const [index, text] of texts.entries()) {
      const scan = scanForCredentials(text, { secrets });
      if (scan.found) scan.kinds.forEach((kind) => kinds.add(kind));
      if (releasesSecretPart(text, secrets)) kinds.add(secretPart);
      // A token started in the answer's text and finished in its file (or in another file) is one token too.
      const besides = texts.length > 1 ? runsToRemember(texts.filter((_, other) => other !== index).join('\n')) : [];
      for (const kind of crossTurnKinds([...earlier, ...besides], text)) kinds.add(acrossAnswers(kind));
    }
    if (kinds.size === 0) {
      // Best effort: a store that cannot be written leaves the next answer to the ordinary scan. Files count as
      // released: half a token in this answer's file is finished in the next one's text or file.
      await released
        ?.remember(conversationKey, texts.join('\n'))
        .catch((error: unknown) => log.warn({ conversation: conversationKey, error: String(error) }, 'released fragments not recorded'));
      return reply;
    }
    // Log what kind of secret, never the secret.
    log.warn({ conversation: conversationKey, kinds: [...kinds], files: reply.files.length }, 'outbound message blocked by DLP');
    return { text: dlpNotice(language), files: [], replyTo: reply.replyTo };
  }

  /** Whether a text may leave as it is (a live answer's update): the same scan, no files, nothing logged. */
  allows(text: string, earlier: readonly string[] = []): boolean {
    const { secrets } = this.options;
    return !scanForCredentials(text, { secrets }).found && !releasesSecretPart(text, secrets) && crossTurnKinds(earlier, text).length === 0;
  }

  /** `allows` for one conversation's live answer: what earlier answers released is read once, at its start. */
  async liveCheck(conversationKey: string): Promise<(text: string) => boolean> {
    const earlier = this.options.released ? await this.options.released.earlier(conversationKey) : [];
    return (text) => this.allows(text, earlier);
  }

  private async readForScan(path: string): Promise<string> {
    try {
      const bytes = await readFile(path);
      return bytes.subarray(0, scannedFileBytes).toString('utf8');
    } catch {
      return '';
    }
  }
}
