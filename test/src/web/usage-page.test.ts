import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyCounts, lastDays, type UsageCounts } from '../../../src/storage/usage-store.js';
import { startAdminSite, type AdminSiteWorld } from '../../support/admin-site.js';

// The usage page over HTTP against the whole app: /usage's figures per group and per user for each period, the
// turns of the 30 days as an SVG sized by attributes (the CSP blocks style attributes), and a group admin's scope.

let world: AdminSiteWorld;
const ours = 'telegram:-100555';
const theirs = 'telegram:-100777';

const counts = (more: Partial<UsageCounts>): UsageCounts => ({ ...emptyCounts(), ...more });

beforeAll(async () => {
  world = await startAdminSite();
  const { usage } = world.testApp.app.storage;
  const days = lastDays(new Date(), 30, world.testApp.app.config.BOT_TIMEZONE);
  const [today = '', threeDaysAgo = '', twentyDaysAgo = ''] = [days[0], days[3], days[20]];
  await usage.add({
    day: today,
    spaceKey: ours,
    userKey: 'telegram:11',
    userName: 'Anong',
    counts: counts({ turns: 3, modelMs: 120_000, promptTokens: 12_345 }),
  });
  await usage.add({ day: today, spaceKey: theirs, userKey: 'telegram:22', userName: 'Boonmee', counts: counts({ turns: 5, searches: 2 }) });
  await usage.add({ day: threeDaysAgo, spaceKey: ours, userKey: 'telegram:33', userName: 'Chai <b>', counts: counts({ turns: 7, generatedTokens: 900 }) });
  await usage.add({ day: twentyDaysAgo, spaceKey: theirs, userKey: 'telegram:22', userName: 'Boonmee', counts: counts({ turns: 11, ocrPages: 4 }) });
});
afterAll(async () => world.close());

/** The HTML from the element with `id` to the end of its table (or of the section when it is no table). */
function part(page: string, id: string): string {
  const start = page.indexOf(`id="${id}"`);
  expect(start, `#${id} on the page`).toBeGreaterThan(-1);
  const end = page.indexOf('</table>', start);
  return page.slice(start, end === -1 ? undefined : end);
}

/** The figures of the row whose `data-space` (and `data-user`) is given, cell texts in order. */
function rowOf(table: string, attribute: string): string[] {
  const start = table.indexOf(attribute);
  expect(start, attribute).toBeGreaterThan(-1);
  const row = table.slice(table.indexOf('>', start) + 1, table.indexOf('</tr>', start));
  return row
    .split(/<\/t[dh]>/)
    .slice(0, -1)
    .map((cell) => cell.replace(/<[^>]*>/g, '').trim());
}

async function pageText(path: string, grant: Parameters<AdminSiteWorld['logIn']>[0] = {}): Promise<string> {
  const browser = await world.logIn(grant);
  const answer = await browser.get(path);
  expect(answer.status).toBe(200);
  return answer.text();
}

describe('the usage page', () => {
  it('shows each group’s and each user’s figures for today, 7 days and 30 days', async () => {
    const today = await pageText('/admin/usage?period=today');
    expect(today).toContain('การใช้งาน');
    expect(part(today, 'usage-period')).toContain('href="/admin/usage?period=today" data-period="today" aria-current="page"');
    const groups = part(today, 'usage-groups');
    expect(rowOf(groups, `data-space="${theirs}"`)).toEqual([theirs, '5', '0 วินาที', '0', '0', '2', '0']);
    expect(rowOf(groups, `data-space="${ours}"`)).toEqual([ours, '3', '2 นาที', '12,345', '0', '0', '0']);
    // Most turns first, as /usage ranks them.
    expect(groups.indexOf(theirs)).toBeLessThan(groups.indexOf(ours));
    expect(part(today, 'usage-users')).not.toContain('Chai');

    const week = await pageText('/admin/usage?period=7d');
    expect(rowOf(part(week, 'usage-groups'), `data-space="${ours}"`)[1]).toBe('10');
    expect(rowOf(part(week, 'usage-users'), 'data-user="telegram:33"')).toEqual(['Chai &lt;b&gt;', 'telegram:33', ours, '7', '0 วินาที', '0', '900', '0', '0']);

    const month = await pageText('/admin/usage?period=30d');
    expect(rowOf(part(month, 'usage-groups'), `data-space="${theirs}"`)).toEqual([theirs, '16', '0 วินาที', '0', '0', '2', '4']);
    // The sums of every period, whichever is chosen.
    const summary = part(month, 'usage-summary');
    expect(rowOf(summary, 'data-period="today"')[1]).toBe('8');
    expect(rowOf(summary, 'data-period="7d"')[1]).toBe('15');
    expect(rowOf(summary, 'data-period="30d"')[1]).toBe('26');
  });

  it('draws the 30 days as an SVG sized by attributes, titled, with the numbers in a table too', async () => {
    const page = await pageText('/admin/usage');
    const chart = part(page, 'usage-chart');
    expect(chart).toContain('<svg');
    expect(chart).toContain('role="img"');
    expect(chart).toContain('<title id="usage-chart-title">จำนวนครั้งต่อวัน (30 วัน)</title>');
    const bars = chart.split('class="bar"').slice(1);
    expect(bars).toHaveLength(30);
    // The busiest day is the full height; a quiet day has none.
    expect(bars.find((bar) => bar.includes('data-turns="11"'))).toContain('height="134"');
    expect(bars.filter((bar) => bar.includes('height="0"'))).toHaveLength(27);
    expect(bars.at(-1)).toContain('data-turns="8"');
    // Thai dates with the Buddhist-Era year in each bar's title and in the table.
    const year = String(new Date().getFullYear() + 543);
    expect(bars.at(-1)).toContain(year);
    expect(part(page, 'usage-daily')).toContain('<td class="number" data-label="ครั้ง">8</td>');
    // Nothing the CSP would block.
    expect(page).not.toContain('style=');
    expect(page).not.toContain('<style');
    // 7 days is the default, as /usage alone; an unknown period word is the default too.
    expect(page).toContain('data-period="7d" aria-current="page"');
    expect(await pageText(`/admin/usage?period=${'x'.repeat(5000)}`)).toContain('data-period="7d" aria-current="page"');
  });

  it('shows a group admin only the groups of their scope', async () => {
    const page = await pageText('/admin/usage?period=30d', { adminId: 'telegram:11', name: 'Anong', scope: { kind: 'spaces', spaceKeys: [ours] } });
    expect(page).toContain(ours);
    expect(page).not.toContain(theirs);
    expect(page).not.toContain('Boonmee');
    expect(rowOf(part(page, 'usage-summary'), 'data-period="30d"')[1]).toBe('10');
    expect(part(page, 'usage-chart')).not.toContain('data-turns="11"');
  });

  it('speaks English to an English session', async () => {
    const page = await pageText('/admin/usage?period=today', { language: 'en' });
    expect(page).toContain('Turns per day (30 days)');
    expect(rowOf(part(page, 'usage-groups'), `data-space="${ours}"`)[2]).toBe('2 min');
    expect(part(page, 'usage-chart')).toContain(String(new Date().getFullYear()));
  });
});
