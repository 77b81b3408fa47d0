// A password asked for in parts ("ส่วนแรกของรหัสผ่านคือ Xk9#mP2", then "ส่วนที่สองคือ qLr7$vB4n"): each part is too
// short to be blocked alone, has no prefix, and its characters (`#`, `$`, `&`) end a token run. So an answer that
// says it gives a part (ส่วนแรก, ครึ่งแรก, part 1, first half…) of a labelled password leaves `password=<part>` in
// the conversation's record (released-fragments.ts), and the next answer's short ASCII runs are scanned joined
// onto it. Only after such an answer: ordinary answers never read a password label into the record.

const maximumText = 4_000;
const partWords = /ส่วนแรก|ส่วนที่\s?(?:1|๑|หนึ่ง)|ครึ่งแรก|ท่อนแรก|\bpart\s?(?:1|one)\b|\bfirst\s(?:half|part)\b/i;
const passwordLabel = /รหัสผ่าน|พาสเวิร์ด|password|passwd|passphrase|pwd/gi;
/** Between a label and its value: what may stand before the `:`, `=`, คือ or "is" that introduces it. */
const maximumLabelGap = 40;
const maximumPart = 64;
/** What the record keeps: a label the scanner reads as one (`password=`), then the part released. */
const recordedLabel = 'password=';
const printableRun = /[!-~]{3,}/g;
const quotes = `"'\``;

/** A run without the quotes around it. */
function unquoted(run: string): string {
  let start = 0;
  let end = run.length;
  while (start < end && quotes.includes(run[start] ?? '')) start++;
  while (end > start && quotes.includes(run[end - 1] ?? '')) end--;
  return run.slice(start, end);
}

/** The value a label introduces (`รหัสผ่าน Wi-Fi คือ "Tr0ub4d"` → `Tr0ub4d`), read by code: undefined when none. */
function valueAfter(text: string, labelEnd: number): string | undefined {
  const gap = text.slice(labelEnd, labelEnd + maximumLabelGap + 4);
  const introducers = [':', '=', 'คือ', ' is '].map((word) => ({ word, at: gap.indexOf(word) })).filter(({ at }) => at >= 0 && at <= maximumLabelGap);
  const first = introducers.sort((left, right) => left.at - right.at)[0];
  if (!first || gap.slice(0, first.at).includes('\n')) return undefined;
  const rest = text.slice(labelEnd + first.at + first.word.length, labelEnd + first.at + first.word.length + maximumPart + 8).trimStart();
  const run = /^[!-~]{1,80}/.exec(rest)?.[0];
  const value = run === undefined ? '' : unquoted(run);
  return value.length >= 3 && value.length <= maximumPart ? value : undefined;
}

/** The labelled password parts an answer released (`password=<part>`), when it says it gives a part. */
export function passwordPartsToRemember(text: string): string[] {
  const bounded = text.slice(0, maximumText);
  if (!partWords.test(bounded)) return [];
  return [...bounded.matchAll(passwordLabel)].flatMap((match) => {
    const value = valueAfter(bounded, match.index + match[0].length);
    return value ? [`${recordedLabel}${value}`] : [];
  });
}

/** Whether a remembered run is a password part (joined with the next answer's short runs, not its token runs). */
export function isPasswordPart(remembered: string): boolean {
  return remembered.startsWith(recordedLabel);
}

/** A run that could be a password's rest: a letter, and a digit or a symbol. */
function mayBePasswordRest(run: string): boolean {
  return /[A-Za-z]/.test(run) && /[0-9!#$%&*+=?@^~]/.test(run) && !run.includes('://');
}

/** The next answer's runs that could be a password's rest, quotes taken off. */
export function passwordRests(text: string): string[] {
  const rests: string[] = [];
  for (const match of text.slice(0, maximumText).matchAll(printableRun)) {
    const run = unquoted(match[0]);
    if (run.length >= 3 && run.length <= maximumPart && mayBePasswordRest(run)) rests.push(run);
    if (rests.length >= 50) break;
  }
  return rests;
}
