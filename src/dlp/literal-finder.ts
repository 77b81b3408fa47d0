// Which of a fixed set of lower-case ASCII literals occur in a text, ignoring case, in about one pass. The scanner
// skips a rule whose literals are all absent; asking `includes` once per literal (a hundred of them) over a lower-cased
// copy cost more than the rules themselves on a large message. One case-insensitive alternation of the literals not
// found yet runs from where the last one was found (longest first, so a shorter literal at the same place is found by
// the next round): a literal found is never looked for again.

function escapeForRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** Alternations kept for the sets of literals found so far (a text finds few, so a few sets recur); bounded. */
const cachedAlternations = 512;

export class LiteralFinder {
  private readonly literals: readonly string[];
  private readonly escaped: readonly string[];
  /** The alternation of the literals not found, by the indexes found (sorted, joined): building one cost more than running it. */
  private readonly alternations = new Map<string, RegExp>();

  /** `literals`: lower-case printable ASCII, one character or more. */
  constructor(literals: Iterable<string>) {
    this.literals = [...new Set(literals)].sort((left, right) => right.length - left.length);
    for (const literal of this.literals) {
      if (literal.length === 0 || !/^[\x20-\x7e]{1,200}$/.test(literal) || literal !== literal.toLowerCase()) {
        throw new Error(`not a lower-case ASCII literal: ${JSON.stringify(literal)}`);
      }
    }
    this.escaped = this.literals.map(escapeForRegex);
  }

  /** The literals that occur in `text`, in either case. */
  present(text: string): Set<string> {
    const found = new Set<string>();
    const foundIndexes: number[] = [];
    let from = 0;
    while (foundIndexes.length < this.literals.length) {
      const alternation = this.alternationWithout(foundIndexes);
      alternation.lastIndex = from;
      const match = alternation.exec(text);
      if (!match) break;
      // Without the `u` flag, only ASCII letters match ASCII letters case-insensitively: the match is one literal.
      const literal = match[0].toLowerCase();
      const index = this.literals.indexOf(literal);
      const isNew = index >= 0 && !found.has(literal);
      if (isNew) {
        found.add(literal);
        foundIndexes.push(index);
        foundIndexes.sort((left, right) => left - right);
      }
      from = isNew ? match.index : match.index + 1;
    }
    return found;
  }

  private alternationWithout(foundIndexes: readonly number[]): RegExp {
    const key = foundIndexes.join(',');
    let alternation = this.alternations.get(key);
    if (!alternation) {
      alternation = new RegExp(this.escaped.filter((_, index) => !foundIndexes.includes(index)).join('|'), 'gi');
      if (this.alternations.size >= cachedAlternations) this.alternations.clear();
      this.alternations.set(key, alternation);
    }
    return alternation;
  }
}
