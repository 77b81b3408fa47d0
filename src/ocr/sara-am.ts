// Tesseract's Thai model writes sara am (ำ, U+0E33) as nikhahit + sara aa (U+0E4D U+0E32), sometimes with the tone
// mark between them. Unicode NFC does not compose the pair, so "สำนักงาน" read from an image would not match the
// same word typed by a user. One character class and one optional mark: linear in the input.
const decomposedSaraAm = /\u0E4D([\u0E48-\u0E4B]?)\u0E32/g;

/** ◌ํ◌า → ◌ำ, ◌ํ◌้◌า → ◌้◌ำ; a tone mark written before the nikhahit (◌้◌ํ◌า) already ends up in the right place. */
export function composeSaraAm(text: string): string {
  return text.replace(decomposedSaraAm, '$1\u0E33');
}
