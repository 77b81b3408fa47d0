import { parseReminderOrigin, originInSpace } from '../../../reminders/reminder-origin.js';
import type { Reminder } from '../../../reminders/reminder-store.js';
import type { InboundMessage } from '../../../shared/types.js';
import type { WebSession } from '../../web-sessions.js';

// Where a daily digest set on the page is posted. In the chat it answers the `/summary digest` message; the page
// has no message of the group, and a chat's address differs by platform (a Discord channel is not its server's
// key), so it takes the chat of a reminder the group already has: its digest's (the time changes, the place stays),
// else the newest other reminder's (a digest quotes no message: it is sent into that chat). None: the first digest
// is set in the chat.

export interface DigestOrigin {
  message: InboundMessage;
  /** The language the group's reminder was written in. */
  language: 'th' | 'en';
}

export function digestOrigin(reminders: readonly Reminder[], spaceKey: string, session: Pick<WebSession, 'adminId' | 'name'>): DigestOrigin | undefined {
  const digest = reminders.find((reminder) => reminder.kind === 'digest');
  const source = digest ?? [...reminders].sort((a, b) => b.createdAt - a.createdAt)[0];
  const stored = source && parseReminderOrigin(source.origin);
  if (!source || !stored) return undefined;
  const origin = originInSpace(stored, spaceKey);
  const [platform, ...id] = session.adminId.split(':');
  // Who set it, where the admin is a person of the group's platform (a bot admin from another platform is not).
  const sender = platform === origin.platform ? { ...origin.sender, id: id.join(':'), name: session.name } : origin.sender;
  return { message: { ...origin, sender }, language: source.language };
}
