import { formatNumber } from '../../../commands/usage-report.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import { html, type Html } from '../../html.js';
import { usageTexts } from './usage-texts.js';

// Turns per day over the 30 days as an inline SVG whose bars are sized by attributes (the CSP's `style-src 'self'`
// refuses style attributes and inline <style>; colours come from admin.css by class). For screen readers and for
// the exact numbers: its <title> and caption, each bar's own <title>, and the same figures in a table.

const texts = {
  description: {
    th: 'กราฟแท่งจำนวนครั้งต่อวัน ตั้งแต่ {from} ถึง {to}: รวม {total} ครั้ง มากที่สุด {max} ครั้งต่อวัน',
    en: 'Bar chart of turns per day from {from} to {to}: {total} in all, at most {max} in a day',
  },
  bar: { th: '{day}: {turns} ครั้ง', en: '{day}: {turns} turns' },
  asTable: { th: 'ดูเป็นตาราง', en: 'Show as a table' },
} satisfies Record<string, Localized>;

export interface DayTurns {
  /** `YYYY-MM-DD` in BOT_TIMEZONE. */
  day: string;
  turns: number;
}

const width = 600;
const height = 180;
const top = 16;
const bottom = 150;
const left = 4;
const right = 596;

/** A day key in the reader's language: Thai with its Buddhist-Era year ("5 ธ.ค. 2568"), the calendar day as kept. */
export function dayLabel(day: string, language: Language): string {
  const noon = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(noon.getTime())) return day;
  return new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(noon);
}

const round = (value: number) => Math.round(value * 10) / 10;

/** `days` oldest first. */
export function turnsChart(days: readonly DayTurns[], language: Language): Html {
  const max = Math.max(0, ...days.map((entry) => entry.turns));
  const total = days.reduce((sum, entry) => sum + entry.turns, 0);
  const slot = (right - left) / Math.max(1, days.length);
  const plot = bottom - top;
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';
  const bars = days.map((entry, index) => {
    // A day with any turn shows at least a sliver; a quiet day shows none.
    const barHeight = max === 0 || entry.turns === 0 ? 0 : Math.max(1, round((entry.turns / max) * plot));
    const label = say(texts.bar, language, { day: dayLabel(entry.day, language), turns: formatNumber(entry.turns) });
    return html`<rect
      class="bar"
      x="${round(left + index * slot + slot * 0.15)}"
      y="${round(bottom - barHeight)}"
      width="${round(slot * 0.7)}"
      height="${barHeight}"
      data-day="${entry.day}"
      data-turns="${entry.turns}"
      ><title>${label}</title></rect
    >`;
  });
  const description = say(texts.description, language, {
    from: dayLabel(first, language),
    to: dayLabel(last, language),
    total: formatNumber(total),
    max: formatNumber(max),
  });
  return html`<figure class="usage-chart" id="usage-chart">
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox="0 0 ${width} ${height}"
        width="100%"
        role="img"
        aria-labelledby="usage-chart-title"
        aria-describedby="usage-chart-caption"
        focusable="false"
      >
        <title id="usage-chart-title">${pick(usageTexts.chartHeading, language)}</title>
        <line class="axis" x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" />
        <text class="tick" x="${left}" y="${top - 4}">${formatNumber(max)}</text>
        <g class="bars">${bars}</g>
        <text class="tick" x="${left}" y="${height - 8}">${dayLabel(first, language)}</text>
        <text class="tick" x="${right}" y="${height - 8}" text-anchor="end">${dayLabel(last, language)}</text>
      </svg>
      <figcaption class="muted" id="usage-chart-caption">${description}</figcaption>
    </figure>
    <details>
      <summary>${pick(texts.asTable, language)}</summary>
      <table class="responsive" id="usage-daily">
        <thead>
          <tr>
            <th scope="col">${pick(usageTexts.day, language)}</th>
            <th scope="col" class="number">${pick(usageTexts.turns, language)}</th>
          </tr>
        </thead>
        <tbody>
          ${[...days].reverse().map(
            (entry) =>
              html`<tr data-day="${entry.day}">
                <td data-label="${pick(usageTexts.day, language)}">${dayLabel(entry.day, language)}</td>
                <td class="number" data-label="${pick(usageTexts.turns, language)}">${formatNumber(entry.turns)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </details>`;
}
