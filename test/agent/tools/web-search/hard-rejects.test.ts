import { describe, expect, it } from 'vitest';
import { hardReject } from '../../../../agent/tools/web-search/hard-rejects.js';
import { analyzeIntent } from '../../../../agent/tools/web-search/query-intent.js';
import { planQuery } from '../../../../agent/tools/web-search/query-variants.js';
import type { RejectReason, SearchProvider } from '../../../../agent/tools/web-search/types.js';

const provider: SearchProvider = { name: 'searxng', siteRestriction: 'query', search: () => Promise.reject(new Error('not used')) };
const currentYear = 2026;

function rejectOf(query: string, title: string, snippet = ''): RejectReason | null {
  return hardReject(analyzeIntent(planQuery(query, provider), currentYear), title, `${title} ${snippet}`);
}

type Case = [query: string, title: string, snippet: string, expected: RejectReason | null];

const cases: Record<string, Case[]> = {
  year: [
    ['ยื่นภาษีปี 2568', 'ยื่นภาษีปี 2566 ได้ถึงเมื่อไร', '', 'year'],
    ['ยื่นภาษีปี 2568', 'ยื่นภาษี ปี ๒๕๖๖', 'หมดเขต 31 มี.ค.', 'year'],
    ['ยื่นภาษีปี 2568', 'ยื่นภาษี พ.ศ. 67', '', 'year'],
    ['ยื่นภาษีปี 2568', 'Thailand tax filing 2024', '', 'year'],
    ['Thai tax deadline 2025', 'Thai tax filing for 2023', '', 'year'],
    ['ราคาทองคำวันนี้', 'ราคาทองวันนี้ 12 ม.ค. 2567', 'ขึ้น 100 บาท', 'year'],
    // Same year in the other calendar, no year at all, or the wanted year among others: kept.
    ['ยื่นภาษีปี 2568', 'Thailand tax filing 2025', '', null],
    ['Thai tax 2025', 'ภาษีปี พ.ศ. 2568', '', null],
    ['Thai tax 2025', 'ภาษีปี ๒๕๖๘', '', null],
    ['ยื่นภาษีปี 2568', 'ยื่นภาษีออนไลน์ทำอย่างไร', '', null],
    ['ยื่นภาษีปี 2568', 'เทียบภาษีปี 2567 กับ 2568', '', null],
    ['ราคาทองคำวันนี้', 'ราคาทองวันนี้ 5 มี.ค. 69', 'ขายออก 47,150 บาท', null],
  ],
  version: [
    ['Python 3.12 new features', "What's New In Python 3.9", '', 'version'],
    ['Python 3.12 มีอะไรใหม่', 'สรุป Python 3.11', 'ฟีเจอร์ใหม่', 'version'],
    ['python 3.12 typing', 'Typing in python3.10', '', 'version'],
    ['Python 3.12 new features', "What's New In Python 3.12", '', null],
    ['Python 3.12 new features', 'The Python Tutorial — Python 3.12.3 documentation', '', null],
    ['Python 3.12 new features', 'Python release notes', 'compared to 3.11', null],
    // Other products' versions do not count.
    ['Python 3.12 new features', 'Django 5.0 supports Python 3.12', '', null],
  ],
  deadline: [
    ['ยื่นภาษีออนไลน์หมดเขตวันไหน', 'วิธียื่นภาษีออนไลน์', 'ขั้นตอนการกรอกแบบ ภ.ง.ด.90/91', 'deadline'],
    ['tax filing deadline thailand', 'How to file taxes online in Thailand', 'step by step guide', 'deadline'],
    ['ยื่นภาษีออนไลน์หมดเขตวันไหน', 'ยื่นภาษีออนไลน์', 'ได้ภายในวันที่ 8 เมษายน', null],
    ['ยื่นภาษีออนไลน์หมดเขตวันไหน', 'ยื่นภาษีออนไลน์', 'ยื่นได้ถึง ๘ เม.ย.', null],
    ['tax filing deadline thailand', 'Thailand tax filing', 'file by April 8', null],
    ['tax filing deadline thailand', 'Thailand tax filing', 'returns are due on 31/03/2025', null],
  ],
  price: [
    ['ราคาทองคำวันนี้', 'ตลาดทองคำผันผวน นักลงทุนจับตาเฟด', 'ราคาทองแกว่งตัว', 'price'],
    ['iPhone 16 price in Thailand', 'iPhone 16 review: the best camera yet', 'price starts at 29,900 baht', 'price'],
    ['ราคาทองคำวันนี้', 'ทองคำแท่งขายออก 47,150 บาท', '', null],
    ['ค่าธรรมเนียมโอนเงินต่างประเทศ', 'ค่าธรรมเนียมโอนเงิน', '', null],
    ['iPhone 16 price in Thailand', 'iPhone 16 pricing and availability', '', null],
    ['how much does a Bangkok to Chiang Mai flight cost', 'Cheap flights from $25', '', null],
  ],
  forecast: [
    ['ราคาทองคำล่าสุด', 'คาดการณ์ราคาทองคำปีหน้า', 'นักวิเคราะห์มองบวก', 'forecast'],
    ['ราคาทองคำล่าสุด', 'ราคาทองคำ แนวโน้มสัปดาห์หน้า', '', 'forecast'],
    ['current bitcoin price', 'Bitcoin price prediction 2026', '', 'forecast'],
    ['latest inflation rate', 'Inflation outlook for the euro area', '', 'forecast'],
    ['ราคาทองคำล่าสุด', 'ราคาทองคำวันนี้ ขายออก 47,150 บาท', '', null],
    // The question asks for the forecast (or the weather, which is one): forecasts are the answer.
    ['พยากรณ์อากาศวันนี้', 'พยากรณ์อากาศ 7 วันข้างหน้า', '', null],
    ['bitcoin price prediction today', 'Bitcoin price prediction', '', null],
    ['weather today bangkok', 'Bangkok weather forecast', '', null],
  ],
};

describe.each(Object.entries(cases))('hard reject: %s', (_rule, table) => {
  it.each(table)('%s | %s %s → %s', (query, title, snippet, expected) => {
    expect(rejectOf(query, title, snippet)).toBe(expected);
  });
});
