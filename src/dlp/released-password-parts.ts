// A password asked for in parts ("ส่วนแรกของรหัสผ่านคือ Xk9#mP2", then "ส่วนที่สองคือ qLr7$vB4n"): each part is too
// short to be blocked alone, has no prefix, and its characters (`#`, `$`, `&`) end a token run. So an answer that
// says it gives a part (ส่วนแรก, ครึ่งแรก, part 1, first half…) of a labelled password leaves `password=<part>` in
// the conversation's record (released-fragments.ts), and the next answer's short ASCII runs are scanned joined
// onto it. Only after such an answer: ordinary answers never read a password label into the record.

const maximumText = 4_000;
const partWords = /ส่วนแรก|ส่วนที่\s?(?:1|๑|หนึ่ง)|ครึ่งแรก|ท่อนแรก|\bpart\s?(?:1|one)\b|\bfirst\s(?:half|part)\b/i;
const labelledValue = /(?:รหัสผ่าน|พาสเวิร์ด|password|passwd|passphrase|pwd)[^\n:=]{0,40}?(?:[:=]|คือ|is)\s{0,3}["'`]?([!-~]{3,64}?)["'`]?(?=\s|$)/gi;
/** What the record keeps: a label the scanner reads as one (`password=`), then the part released. */
const recordedLabel = 'password=';
const restRun = /["'`]?([!-~]{3,64}?)["'`]?(?=\s|$)/g;

/** The labelled password parts an answer released (`password=<part>`), when it says it gives a part. */
export function passwordPartsToRemember(text: string): string[] {
  const bounded = text.slice(0, maximumText);
  if (!partWords.test(bounded)) return [];
  return [...bounded.matchAll(labelledValue)].flatMap((match) => (match[1] ? [`${recordedLabel}${match[1]}`] : []));
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
  for (const match of text.slice(0, maximumText).matchAll(restRun)) {
    const run = match[1] ?? '';
    if (mayBePasswordRest(run)) rests.push(run);
    if (rests.length >= 50) break;
  }
  return rests;
}
