import { segmentsOf } from '../shared/segments.js';

// Whether a group message calls the bot by one of its names (a space's `/settings trigger name`).
//
// Thai has no spaces between words, and Intl.Segmenter (Node 20, ICU dictionary) splits "แสงสว่าง", "แสงอาทิตย์"
// and "ไฟฉายแสงสีขาว" so that แสง is a segment of its own, while "แสงแดด", "แสงจันทร์", "ลำแสง" and "ปีแสง" stay one
// segment. Being its own segment is therefore not enough; what tells a call from the noun is what is glued to it.
// A clause is a run of word segments with nothing between them (a space, punctuation, an emoji or a line break
// ends it). A Thai name calls the bot when, within its clause:
//  - opening: the name (or an honorific พี่/น้อง/คุณ/ท่าน just before it) starts the clause, and the name ends it
//    or is followed by a vocative particle (ครับ, คะ, จ๋า…) or a request verb (ช่วย, ตอบ, แปล…):
//    "แสง ช่วยสรุปหน่อย", "พี่แสงครับ", "แสงช่วยสรุปหน่อย" — not "แสงสว่าง", "แสงไฟสวยมาก";
//  - closing: the name ends the clause and starts it (after an honorific at most), or follows a closing word
//    (ครับ, นะ, สวัสดี, ขอบคุณ…) or "ช่วยด้วย": "สวัสดีครับแสง", "ช่วยด้วยแสง" — not "ไฟฉายแสง", "ถ่ายด้วยแสง".
// A plain แสง ending a sentence as its object ("เปิดไฟให้มีแสง", "ช่วยเพิ่มแสง") is not a call: the people in the
// group would read it as light too. Known ambiguity: "แสงช่วยให้พืชโต" (light helps plants grow) reads as a call.
// The clause must be one of the first two or last two of its line, and a clause that is the name alone the first or
// the last one ("… เที่ยวมา แสง สี เสียง อลังการมาก" is the idiom, not a call).
// A Latin-script name ("saeng") calls as a whole word anywhere, case-insensitively. Words inside links, e-mail
// addresses, paths, file names, @handles and #hashtags never call.

/** Only the start of a message is read: a call is at its start or near it, and the work stays bounded. */
const lookedAt = 500;

const honorifics = new Set(['พี่', 'น้อง', 'คุณ', 'ท่าน']);
const vocatives = ['ครับ', 'คับ', 'ค่ะ', 'คะ', 'ขา', 'จ๋า', 'จ้า', 'จ้ะ', 'จ๊ะ', 'เอ๊ย', 'เอ๋ย'];
const requestVerbs = ['ช่วย', 'ตอบ', 'บอก', 'แปล', 'สรุป', 'อธิบาย', 'ลอง', 'คิด', 'รู้', 'ว่า'];
const afterName = new Set([...vocatives, ...requestVerbs]);
const beforeName = new Set([...vocatives, 'นะ', 'หน่อย', 'ที', 'ไหม', 'สวัสดี', 'ดี', 'ขอบคุณ', 'ขอบใจ', 'ไง', 'เค', 'เฮ้ย', 'เฮ้']);

const thaiLetter = /[\u0E00-\u0E7F]/u;
const latinWordCharacter = /[\p{Script=Latin}\p{N}_]/u;
const token = /\S+/gu;
const linkLike = /:\/\/|[/\\@]|^#|^www\.|[\p{L}\p{N}]\.[\p{L}\p{N}]/u;

let shared: Intl.Segmenter | undefined;

function thaiWords(): Intl.Segmenter {
  shared ??= new Intl.Segmenter('th', { granularity: 'word' });
  return shared;
}

/** True when `text` calls the bot by one of `names` (see the rule above); names are matched NFC, lower-cased. */
export function callsByName(text: string, names: readonly string[]): boolean {
  const wanted = names.map((name) => name.normalize('NFC').toLowerCase().trim()).filter((name) => name !== '');
  if (wanted.length === 0) return false;
  const read = withoutLinks(text.slice(0, lookedAt).normalize('NFC').toLowerCase());
  return wanted.some((name) => (thaiLetter.test(name) ? callsInThai(read, wordsOf(name)) : callsInLatin(read, name)));
}

function withoutLinks(text: string): string {
  return text.replace(token, (word) => (linkLike.test(word) ? ' ' : word));
}

function wordsOf(text: string): string[] {
  return [...segmentsOf(thaiWords(), text)].filter((segment) => segment.isWordLike).map((segment) => segment.segment);
}

function clausesOf(line: string): string[][] {
  const clauses: string[][] = [];
  let current: string[] = [];
  for (const segment of segmentsOf(thaiWords(), line)) {
    if (segment.isWordLike) {
      current.push(segment.segment);
    } else if (current.length > 0) {
      clauses.push(current);
      current = [];
    }
  }
  if (current.length > 0) clauses.push(current);
  return clauses;
}

function callsInThai(text: string, name: readonly string[]): boolean {
  if (name.length === 0) return false;
  return text.split('\n').some((line) => {
    const clauses = clausesOf(line);
    return clauses.some((clause, index) => {
      const nearAnEnd = index < 2 || index >= clauses.length - 2;
      const atAnEnd = index === 0 || index === clauses.length - 1;
      return nearAnEnd && callsInClause(clause, name, atAnEnd);
    });
  });
}

function callsInClause(clause: readonly string[], name: readonly string[], atAnEnd: boolean): boolean {
  for (let start = 0; start + name.length <= clause.length; start += 1) {
    if (!name.every((word, offset) => clause[start + offset] === word)) continue;
    const end = start + name.length;
    if (clause.length === name.length) {
      if (atAnEnd) return true;
      continue;
    }
    const honored = start > 0 && honorifics.has(clause[start - 1] ?? '');
    const from = honored ? start - 1 : start;
    const next = clause[end];
    if (from === 0 && (next === undefined || afterName.has(next))) return true;
    if (end === clause.length && (from === 0 || beforeName.has(clause[from - 1] ?? '') || isHelpPlease(clause, from))) return true;
  }
  return false;
}

/** "ช่วยด้วยแสง": ด้วย alone is "with" ("ถ่ายด้วยแสง", shot with light). */
function isHelpPlease(clause: readonly string[], from: number): boolean {
  return from >= 2 && clause[from - 2] === 'ช่วย' && clause[from - 1] === 'ด้วย';
}

function callsInLatin(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || !latinWordCharacter.test(before)) && (after === undefined || !latinWordCharacter.test(after))) return true;
  }
  return false;
}
