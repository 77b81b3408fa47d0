import { parsePeriod, usageTopCount } from '../../../commands/usage.js';
import { periodNames, sumOf, type UsagePeriod } from '../../../commands/usage-report.js';
import { pick, say } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import type { AdminRoute } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { turnsChart } from './usage-chart.js';
import { bySpace, byUser, readUsageMonth, rowsOf } from './usage-month.js';
import { summaryTable, spaceTable, userTable } from './usage-tables.js';
import { usageTexts as texts } from './usage-texts.js';

// GET /admin/usage[?period=today|7d|30d]: /usage on a page — the sums of each period, each group's and each user's
// figures for the chosen period, and the turns of each of the 30 days as a chart. A bot admin sees every space, a
// group admin the spaces of their session's scope only.

/** Rows a table shows at most: a page, not a dump (the chat's top list is 10). */
const shownRows = usageTopCount * 10;
const periods: UsagePeriod[] = ['today', '7d', '30d'];

function periodSwitch(chosen: UsagePeriod, language: Language): Html {
  return html`<nav class="period-switch" id="usage-period" aria-label="${pick(texts.period, language)}">
    <ul>
      ${periods.map(
        (period) =>
          html`<li>
            <a href="/admin/usage?period=${period}" data-period="${period}" ${period === chosen ? html`aria-current="page"` : ''}
              >${say(periodNames[period], language)}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
}

const cutNote = (count: number, language: Language): Html =>
  count > shownRows ? html`<p class="muted">${say(texts.cut, language, { count: shownRows })}</p>` : html``;

export function usageRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/admin/usage',
      handle: async (admin) => {
        const { language, session } = admin;
        // Only the three period words are links; anything else (bounded first) is the default, as `/usage` alone.
        const period = parsePeriod((admin.query.get('period') ?? '').slice(0, 10)) ?? '7d';
        const month = await readUsageMonth(services.storage.usage, session, services.now(), services.timeZone);
        const rows = rowsOf(month, period);
        const spaces = bySpace(rows, Number.MAX_SAFE_INTEGER);
        const users = byUser(rows, Number.MAX_SAFE_INTEGER);
        const sums = { today: sumOf(rowsOf(month, 'today')), '7d': sumOf(rowsOf(month, '7d')), '30d': sumOf(rowsOf(month, '30d')) };
        const perDay = month.days.map((day, index) => ({ day, turns: sumOf(month.daily[index] ?? []).turns })).reverse();
        const periodName = say(periodNames[period], language);
        const body = html`${periodSwitch(period, language)}
          <section id="usage-totals">
            <h2>${pick(texts.summary, language)}</h2>
            ${summaryTable(sums, language)}
          </section>
          <section>
            <h2>${pick(texts.chartHeading, language)}</h2>
            ${turnsChart(perDay, language)}
          </section>
          <section id="usage-by-group">
            <h2>${say(texts.byGroup, language, { period: periodName })}</h2>
            ${spaceTable(spaces.slice(0, shownRows), language)} ${cutNote(spaces.length, language)}
          </section>
          <section id="usage-by-user">
            <h2>${say(texts.byUser, language, { period: periodName })}</h2>
            ${userTable(users.slice(0, shownRows), language)} ${cutNote(users.length, language)}
          </section>
          <p class="muted">${say(texts.note, language, { zone: services.timeZone })}</p>`;
        admin.page({ title: pick(texts.title, language), current: 'usage', body });
      },
    },
  ];
}
