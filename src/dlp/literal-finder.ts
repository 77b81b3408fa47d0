// Which of a fixed set of lower-case ASCII literals occur in a text, ignoring case, in about one pass. The scanner
// skips a rule whose literals are all absent; asking `includes` once per literal (a hundred of them) over a lower-cased
// copy cost more than the rules themselves on a large message. One case-insensitive alternation of the literals not
// found yet runs from where the last one was found (longest first, so a shorter literal at the same place is found by
// the next round): a literal found is never looked for again.

function escapeForRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export class LiteralFinder {
  private readonly literals: readonly string[];

  /** `literals`: lower-case printable ASCII, one character or more. */
  constructor(literals: Iterable<string>) {
    this.literals = [...new Set(literals)].sort((left, right) => right.length - left.length);
    for (const literal of this.literals) {
      if (literal.length === 0 || !/^[\x20-\x7e]{1,200}$/.test(literal) || literal !== literal.toLowerCase()) {
        throw new Error(`not a lower-case ASCII literal: ${JSON.stringify(literal)}`);
      }
    }
  }

  /** The literals that occur in `text`, in either case. */
  present(text: string): Set<string> {
    const found = new Set<string>();
    let remaining = this.literals;
    let from = 0;
    while (remaining.length > 0) {
      const alternation = new RegExp(remaining.map(escapeForRegex).join('|'), 'gi');
      alternation.lastIndex = from;
      const match = alternation.exec(text);
      if (!match) break;
      // Without the `u` flag, only ASCII letters match ASCII letters case-insensitively: the match is one literal.
      const literal = match[0].toLowerCase();
      found.add(literal);
      const before = remaining.length;
      remaining = remaining.filter((candidate) => candidate !== literal);
      from = remaining.length < before ? match.index : match.index + 1;
    }
    return found;
  }
}
