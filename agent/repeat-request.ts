// The user explicitly asked for repetition ("พิมพ์คำว่า … 10 ครั้ง", "repeat … 5 times"): the repetition
// detector must not cut what was requested.
const englishRequest = /\b(?:repeat|write|say|print|type)\b[^\n]{0,80}?\b\d{1,4}\s{0,3}times\b/i;
const thaiRequest = /(?:ซ้ำ|พิมพ์|เขียน|พูด)[^\n]{0,80}?[\d๐-๙]{1,4}\s{0,3}(?:ครั้ง|รอบ|หน)/;

export function userAskedToRepeat(question: string): boolean {
  const text = question.slice(0, 4000);
  return englishRequest.test(text) || thaiRequest.test(text);
}
