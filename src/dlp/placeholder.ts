// The one placeholder policy of the DLP scanner.
//
// A token of a credential's shape is NOT blocked when its random part is evidently a documentation placeholder:
//   - it contains "EXAMPLE" in any case (AWS documentation keys such as AKIAIOSFODNN7EXAMPLE), or
//   - it has a run of 6 or more identical characters (xxxxxx, 000000, ******), or
//   - it has a run of 6 or more consecutive ascending or descending characters (123456, abcdef, 987654), or
//   - it has fewer than 8 distinct characters, or a Shannon entropy below 3 bits per character.
// A real key is random: each rule above is hit by a real 20+ character key with a probability far below one in a
// million, while fixtures in docs and READMEs hit at least one. The exact values of Saeng's own configured secrets
// are always blocked, placeholder-looking or not, and PEM private-key headers are always blocked.

const minimumDistinct = 8;
const minimumEntropy = 3;
const runLength = 6;

export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    entropy -= share * Math.log2(share);
  }
  return entropy;
}

function hasRun(text: string): boolean {
  let same = 1;
  let up = 1;
  let down = 1;
  for (let index = 1; index < text.length; index++) {
    const step = text.charCodeAt(index) - text.charCodeAt(index - 1);
    same = step === 0 ? same + 1 : 1;
    up = step === 1 ? up + 1 : 1;
    down = step === -1 ? down + 1 : 1;
    if (same >= runLength || up >= runLength || down >= runLength) return true;
  }
  return false;
}

/** True when the random part of a matched token is a documentation placeholder (see the policy above). */
export function isPlaceholderSecret(randomPart: string): boolean {
  if (randomPart.toLowerCase().includes('example')) return true;
  if (hasRun(randomPart)) return true;
  if (new Set(randomPart).size < minimumDistinct) return true;
  return shannonEntropy(randomPart) < minimumEntropy;
}
