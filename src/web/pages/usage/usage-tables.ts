import { formatDuration, formatNumber, periodNames, type UsagePeriod } from '../../../commands/usage-report.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import type { UsageCounts } from '../../../storage/usage-store.js';
import { html, type Html } from '../../html.js';
import { groupPath } from '../groups/group-path.js';
import { usageTexts as texts } from './usage-texts.js';
import type { UserUsage } from './usage-month.js';

// The usage page's tables: each row a set of /usage's figures, written as /usage writes them (grouped digits, a
// duration in seconds, minutes or hours). On a phone each cell carries its column's name (table.responsive).

const figureColumns: { label: Localized; value: (counts: UsageCounts, language: Language) => string }[] = [
  { label: texts.turns, value: (counts) => formatNumber(counts.turns) },
  { label: texts.modelTime, value: (counts, language) => formatDuration(counts.modelMs, language) },
  { label: texts.promptTokens, value: (counts) => formatNumber(counts.promptTokens) },
  { label: texts.generatedTokens, value: (counts) => formatNumber(counts.generatedTokens) },
  { label: texts.searches, value: (counts) => formatNumber(counts.searches) },
  { label: texts.ocrPages, value: (counts) => formatNumber(counts.ocrPages) },
];

const figureHeads = (language: Language): Html =>
  html`${figureColumns.map((column) => html`<th scope="col" class="number">${pick(column.label, language)}</th>`)}`;

const figureCells = (counts: UsageCounts, language: Language): Html =>
  html`${figureColumns.map((column) => html`<td class="number" data-label="${pick(column.label, language)}">${column.value(counts, language)}</td>`)}`;

function table(id: string, heads: Html, rows: Html[], language: Language): Html {
  if (rows.length === 0) return html`<p class="muted" id="${id}-empty">${pick(texts.nothing, language)}</p>`;
  return html`<table class="responsive" id="${id}">
    <thead>
      <tr>
        ${heads}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** Today, 7 days and 30 days over every visible space, like the first lines of /usage. */
export function summaryTable(sums: Record<UsagePeriod, UsageCounts>, language: Language): Html {
  const periods: UsagePeriod[] = ['today', '7d', '30d'];
  const rows = periods.map(
    (period) =>
      html`<tr data-period="${period}">
        <th scope="row" data-label="${pick(texts.period, language)}">${say(periodNames[period], language)}</th>
        ${figureCells(sums[period], language)}
      </tr>`,
  );
  return table(
    'usage-summary',
    html`<th scope="col">${pick(texts.period, language)}</th>
      ${figureHeads(language)}`,
    rows,
    language,
  );
}

export function spaceTable(entries: readonly { spaceKey: string; counts: UsageCounts }[], language: Language): Html {
  const rows = entries.map(
    (entry) =>
      html`<tr data-space="${entry.spaceKey}">
        <th scope="row" data-label="${pick(texts.group, language)}">
          <a href="${groupPath(entry.spaceKey)}"><code>${entry.spaceKey}</code></a>
        </th>
        ${figureCells(entry.counts, language)}
      </tr>`,
  );
  return table(
    'usage-groups',
    html`<th scope="col">${pick(texts.group, language)}</th>
      ${figureHeads(language)}`,
    rows,
    language,
  );
}

export function userTable(entries: readonly UserUsage[], language: Language): Html {
  const rows = entries.map(
    (entry) =>
      html`<tr data-space="${entry.spaceKey}" data-user="${entry.userKey}">
        <th scope="row" data-label="${pick(texts.user, language)}">${entry.userName}</th>
        <td data-label="${pick(texts.userKey, language)}"><code>${entry.userKey}</code></td>
        <td data-label="${pick(texts.group, language)}">
          <a href="${groupPath(entry.spaceKey)}"><code>${entry.spaceKey}</code></a>
        </td>
        ${figureCells(entry.counts, language)}
      </tr>`,
  );
  const heads = html`<th scope="col">${pick(texts.user, language)}</th>
    <th scope="col">${pick(texts.userKey, language)}</th>
    <th scope="col">${pick(texts.group, language)}</th>
    ${figureHeads(language)}`;
  return table('usage-users', heads, rows, language);
}
