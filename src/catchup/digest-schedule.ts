import { reminderOrigin } from '../reminders/reminder-origin.js';
import type { AddResult, Reminder, ReminderLimits, ReminderStore } from '../reminders/reminder-store.js';
import { nextOccurrence } from '../reminders/when/next-occurrence.js';
import { say, type Localized } from '../shared/i18n.js';
import type { InboundMessage, Language } from '../shared/types.js';

// A group's daily catch-up digest (/summary digest 18:00) is a recurring reminder of kind 'digest' in the reminder
// store: the same durable, leased delivery (sent once with several processes, late after downtime), listed by
// /reminders and cancelled by /remind cancel like the others — one place holds whether a group has one. Its text is
// written when it is due (app-catchup.ts: the last 24 hours of the log).

/** Its name in /reminders. */
const digestName: Localized = { th: 'สรุปประจำวันของกลุ่ม (/summary)', en: "the group's daily digest (/summary)" };

export interface DigestTime {
  hour: number;
  minute: number;
}

export class DigestSchedule {
  constructor(
    private readonly store: Pick<ReminderStore, 'list' | 'add' | 'cancel'>,
    private readonly timeZone: string,
    private readonly limits: ReminderLimits,
  ) {}

  /** The space's digest, when it has one. */
  async find(spaceKey: string): Promise<Reminder | undefined> {
    return (await this.store.list(spaceKey)).find((reminder) => reminder.kind === 'digest');
  }

  /** Sets the space's digest at `time` every day (an earlier one is replaced), answered in `message`'s chat. */
  async set(message: InboundMessage, time: DigestTime, language: Language, now: Date): Promise<AddResult> {
    await this.clear(message.spaceKey);
    const dueAt = nextOccurrence({ kind: 'daily' }, now, time, this.timeZone).getTime();
    return this.store.add(
      {
        spaceKey: message.spaceKey,
        userKey: `${message.platform}:${message.sender.id}`,
        userName: message.sender.name,
        text: say(digestName, language),
        dueAt,
        recurrence: { kind: 'daily' },
        timeOfDay: time,
        timeZone: this.timeZone,
        language,
        kind: 'digest',
        origin: reminderOrigin(message),
        createdAt: now.getTime(),
      },
      this.limits,
    );
  }

  /** Removes the space's digest; how many there were. */
  async clear(spaceKey: string): Promise<number> {
    const digests = (await this.store.list(spaceKey)).filter((reminder) => reminder.kind === 'digest');
    for (const digest of digests) await this.store.cancel(spaceKey, digest.number);
    return digests.length;
  }
}
