import { html, type Html, type HtmlValue } from './html.js';

/** A label/value table (a base's details, the overview's health sections): one row per entry, the label a row header. */
export function detailsTable(entries: readonly (readonly [string, HtmlValue])[], id?: string): Html {
  return html`<table class="details" ${id ? html` id="${id}"` : ''}>
    <tbody>
      ${entries.map(
        ([label, value]) =>
          html`<tr>
            <th scope="row">${label}</th>
            <td>${value}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
