import { readFile } from 'node:fs/promises';
import { dlpNotice, scanForCredentials } from '../dlp/scan.js';
import type { Logger } from '../shared/log.js';
import type { Language, Reply } from '../shared/types.js';

const scannedFileBytes = 2 * 1024 * 1024;

/**
 * The one choke point for everything Saeng sends: answers, errors, command replies, progress notes and file
 * contents. A message that carries a credential is blocked whole and replaced by a notice.
 */
export class Outbound {
  constructor(private readonly options: { secrets: readonly string[]; language: Language; log: Logger }) {}

  /** `language`: the notice's, when the message's space chose one (else BOT_LANGUAGE). */
  async prepare(reply: Reply, conversationKey: string, language = this.options.language): Promise<Reply> {
    const kinds = new Set<string>();
    const textScan = scanForCredentials(reply.text, { secrets: this.options.secrets });
    if (textScan.found) textScan.kinds.forEach((kind) => kinds.add(kind));
    for (const file of reply.files) {
      const content = await this.readForScan(file.path);
      const fileScan = scanForCredentials(content, { secrets: this.options.secrets });
      if (fileScan.found) fileScan.kinds.forEach((kind) => kinds.add(kind));
    }
    if (kinds.size === 0) return reply;
    // Log what kind of secret, never the secret.
    this.options.log.warn({ conversation: conversationKey, kinds: [...kinds], files: reply.files.length }, 'outbound message blocked by DLP');
    return { text: dlpNotice(language), files: [], replyTo: reply.replyTo };
  }

  /** Whether a text may leave as it is (a live answer's update): the same scan, no files, nothing logged. */
  allows(text: string): boolean {
    return !scanForCredentials(text, { secrets: this.options.secrets }).found;
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
