import { pick, say, type Localized } from '../../shared/i18n.js';
import { isRecord } from '../../shared/is-record.js';
import type { Language } from '../../shared/types.js';
import type { AdminRoute } from '../admin-route.js';
import { detailsTable } from '../details-table.js';
import { html, type Html } from '../html.js';
import type { AdminServices } from './admin-services.js';

// The overview: what /readyz knows (model server, platforms, stores, disk, OCR, the queue), the model's detected
// capabilities, and the guards' and DLP's events since the start as counts by kind — never a message's text.

const texts = {
  title: { th: 'ภาพรวมและสถานะ', en: 'Overview and health' },
  ready: { th: '✔ พร้อมทำงาน', en: '✔ Ready' },
  notReady: { th: '✘ ยังไม่พร้อม (ดูรายการด้านล่าง)', en: '✘ Not ready (see below)' },
  noPlatforms: { th: 'ไม่มีแพลตฟอร์มที่ตั้งค่าไว้', en: 'No platform configured' },
  model: { th: 'โมเดล', en: 'Model' },
  modelName: { th: 'ชื่อโมเดล', en: 'Model' },
  server: { th: 'เซิร์ฟเวอร์', en: 'Server' },
  reachable: { th: 'ติดต่อได้', en: 'Reachable' },
  tools: { th: 'เรียกเครื่องมือได้', en: 'Tool calls' },
  vision: { th: 'อ่านภาพได้', en: 'Vision' },
  platforms: { th: 'แพลตฟอร์ม', en: 'Platforms' },
  stores: { th: 'ที่เก็บข้อมูล', en: 'Stores' },
  storeState: { th: 'สถานะ (state)', en: 'State' },
  storeKnowledge: { th: 'คลังความรู้', en: 'Knowledge' },
  storeInbound: { th: 'คิวข้อความขาเข้า', en: 'Inbound queue' },
  disk: { th: 'พื้นที่ดิสก์ว่าง', en: 'Free disk' },
  ocr: { th: 'OCR (อ่านข้อความจากภาพ)', en: 'OCR (text in images)' },
  queue: { th: 'คิว', en: 'Queue' },
  pending: { th: 'ข้อความที่รอตอบ', en: 'Messages waiting' },
  oldest: { th: 'รอนานที่สุด', en: 'Oldest waiting' },
  seconds: { th: '{count} วินาที', en: '{count} s' },
  guards: { th: 'เหตุการณ์ของตัวกรองตั้งแต่เริ่มทำงาน', en: 'Guard events since the start' },
  guard: { th: 'ตัวกรอง', en: 'Guard' },
  action: { th: 'การกระทำ', en: 'Action' },
  count: { th: 'จำนวน', en: 'Count' },
  noGuards: { th: 'ยังไม่มีเหตุการณ์', en: 'None yet' },
  yes: { th: 'ใช่', en: 'yes' },
  no: { th: 'ไม่', en: 'no' },
  ok: { th: 'ปกติ', en: 'OK' },
  problem: { th: 'มีปัญหา', en: 'problem' },
  unknown: { th: 'ไม่ทราบ', en: 'unknown' },
  detected: { th: '(ตรวจพบ: {source})', en: '(detected: {source})' },
} satisfies Record<string, Localized>;

function flag(value: unknown, language: Language): Html {
  if (value === true) return html`<span class="good">✔ ${pick(texts.yes, language)}</span>`;
  if (value === false) return html`<span class="bad">✘ ${pick(texts.no, language)}</span>`;
  return html`<span class="muted">${pick(texts.unknown, language)}</span>`;
}

function state(ok: unknown, language: Language): Html {
  if (ok === undefined) return html`<span class="muted">${pick(texts.unknown, language)}</span>`;
  return ok === true ? html`<span class="good">✔ ${pick(texts.ok, language)}</span>` : html`<span class="bad">✘ ${pick(texts.problem, language)}</span>`;
}

const rows = (entries: [string, Html | string][]): Html => detailsTable(entries);

function megabytes(bytes: unknown): string {
  return typeof bytes === 'number' ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : '—';
}

async function overview(services: AdminServices, language: Language): Promise<Html> {
  const [readiness, model, guards] = await Promise.all([
    services.readiness().catch(() => ({ ready: false, detail: {} as Record<string, unknown> })),
    services.model().catch(() => undefined),
    services.guardCounts().catch(() => []),
  ]);
  const detail = readiness.detail;
  const section = (key: string): Record<string, unknown> => (isRecord(detail[key]) ? detail[key] : {});
  const modelServer = section('modelServer');
  const stores = section('stores');
  const disk = section('disk');
  const ocr = section('ocr');
  const queue = section('queue');
  const platforms = Object.entries(section('platforms'));
  const t = (text: Localized) => pick(text, language);
  return html`<p class="notice ${readiness.ready ? 'good' : 'bad'}" role="status" id="readiness">${t(readiness.ready ? texts.ready : texts.notReady)}</p>
    <div class="grid">
      <section>
        <h2>${t(texts.model)}</h2>
        ${rows([
          [t(texts.modelName), model?.model ?? '—'],
          [t(texts.server), String(modelServer.server ?? model?.server ?? '—')],
          [t(texts.reachable), flag(modelServer.reachable, language)],
          [
            t(texts.tools),
            html`${flag(model?.tools ?? modelServer.tools, language)}
              <span class="muted">${say(texts.detected, language, { source: model?.toolsSource ?? '—' })}</span>`,
          ],
          [
            t(texts.vision),
            html`${flag(model?.vision ?? modelServer.vision, language)}
              <span class="muted">${say(texts.detected, language, { source: model?.visionSource ?? '—' })}</span>`,
          ],
        ])}
      </section>
      <section>
        <h2>${t(texts.platforms)}</h2>
        ${rows(platforms.map(([platform, value]) => [platform, String(value)]))}
      </section>
      <section>
        <h2>${t(texts.stores)}</h2>
        ${rows([
          [t(texts.storeState), state(stores.state, language)],
          [t(texts.storeKnowledge), state(stores.knowledge, language)],
          [t(texts.storeInbound), state(stores.inbound, language)],
          [t(texts.disk), html`${state(disk.enough, language)} ${megabytes(disk.freeBytes)}`],
          [t(texts.ocr), flag(ocr.available, language)],
        ])}
      </section>
      <section>
        <h2>${t(texts.queue)}</h2>
        ${rows([
          [t(texts.pending), String(queue.pending ?? '—')],
          [
            t(texts.oldest),
            say(texts.seconds, language, { count: typeof queue.oldestPendingAgeSeconds === 'number' ? Math.round(queue.oldestPendingAgeSeconds) : 0 }),
          ],
        ])}
      </section>
    </div>
    <section>
      <h2>${t(texts.guards)}</h2>
      ${
        guards.length === 0
          ? html`<p class="muted">${t(texts.noGuards)}</p>`
          : html`<table>
              <thead>
                <tr>
                  <th>${t(texts.guard)}</th>
                  <th>${t(texts.action)}</th>
                  <th class="number">${t(texts.count)}</th>
                </tr>
              </thead>
              <tbody>
                ${guards.map(
                  (row) =>
                    html`<tr>
                      <td>${row.guard}</td>
                      <td>${row.action}</td>
                      <td class="number">${row.count}</td>
                    </tr>`,
                )}
              </tbody>
            </table>`
      }
    </section>`;
}

export function overviewRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/admin',
      handle: async (admin) => admin.page({ title: pick(texts.title, admin.language), current: 'overview', body: await overview(services, admin.language) }),
    },
  ];
}
