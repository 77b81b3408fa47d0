import { containsPhrase } from './phrase-match.js';
import type { QueryPlan } from './query-variants.js';
import { type VersionMention, extractVersions } from './versions.js';
import { extractYears } from './years.js';

// What the question asks for, as far as the hard-reject rules of layer 2 care.

export interface QueryIntent {
  /** CE years the question names (or the current year for "this year" / "today" questions). */
  years: number[];
  versions: VersionMention[];
  wantsPrice: boolean;
  wantsDeadline: boolean;
  /** A latest/today question that is not itself about a forecast (or the weather, which is one). */
  wantsLatest: boolean;
}

const pricePhrases = [
  'ราคา',
  'กี่บาท',
  'ค่าบริการ',
  'ค่าธรรมเนียม',
  'ค่าใช้จ่าย',
  'ค่าตั๋ว',
  'ค่าเทอม',
  'ค่าเรียน',
  'ค่าสมัคร',
  'price',
  'prices',
  'pricing',
  'cost',
  'costs',
  'how much',
  'fee',
  'fees',
];
const deadlinePhrases = [
  'กำหนดส่ง',
  'กำหนดยื่น',
  'วันสุดท้าย',
  'หมดเขต',
  'เส้นตาย',
  'เดดไลน์',
  'ปิดรับ',
  'ถึงวันไหน',
  'ถึงวันที่เท่าไร',
  'ถึงวันที่เท่าไหร่',
  'ได้ถึงวันไหน',
  'ภายในวันไหน',
  'สิ้นสุดวันไหน',
  'deadline',
  'due date',
  'last day',
  'closing date',
  'until when',
  'by when',
];
const latestPhrases = ['ล่าสุด', 'วันนี้', 'ตอนนี้', 'ปัจจุบัน', 'ขณะนี้', 'latest', 'today', 'current', 'currently', 'now', 'newest', 'most recent', 'right now'];
const forecastOrWeatherPhrases = [
  'คาดการณ์',
  'พยากรณ์',
  'ทำนาย',
  'แนวโน้ม',
  'อากาศ',
  'ฝน',
  'พายุ',
  'อุณหภูมิ',
  'forecast',
  'prediction',
  'predictions',
  'predict',
  'outlook',
  'trend',
  'weather',
  'rain',
  'storm',
  'temperature',
];

export function analyzeIntent(plan: QueryPlan, currentYear: number): QueryIntent {
  const explicitYears = extractYears(plan.raw);
  const impliedYear = plan.timeIntent === 'this-year' || plan.timeIntent === 'today';
  return {
    years: explicitYears.length > 0 ? explicitYears : impliedYear ? [currentYear] : [],
    versions: extractVersions(plan.raw),
    wantsPrice: containsPhrase(plan.raw, pricePhrases),
    wantsDeadline: containsPhrase(plan.raw, deadlinePhrases),
    wantsLatest: containsPhrase(plan.raw, latestPhrases) && !containsPhrase(plan.raw, forecastOrWeatherPhrases),
  };
}
