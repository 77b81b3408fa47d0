// The user explicitly asked for repetition ("พิมพ์คำว่า … 10 ครั้ง", "repeat … 5 times"): the repetition
// detector must not cut what was requested. A verb, then a count on the same line (two linear scans, no
// unbounded gap between them in one pattern).
const englishVerb = /\b(?:repeat|write|say|print|type)\b/i;
const englishCount = /\b\d{1,4}[ \t]{0,3}times\b/i;
const thaiVerb = /ซ้ำ|พิมพ์|เขียน|พูด/;
const thaiCount = /[\d๐-๙]{1,4}[ \t]{0,3}(?:ครั้ง|รอบ|หน)/;

export function userAskedToRepeat(question: string): boolean {
  return question
    .slice(0, 4000)
    .split('\n')
    .some((line) => asks(line, englishVerb, englishCount) || asks(line, thaiVerb, thaiCount));
}

function asks(line: string, verb: RegExp, count: RegExp): boolean {
  const found = verb.exec(line);
  return found !== null && count.test(line.slice(found.index + found[0].length, found.index + found[0].length + 120));
}
