// Raw text after the first `count` words of a command, with the same quoting rules as splitWords in
// ../parse.ts ("double" or “curly” quotes keep words together), so newlines in the remainder survive.

function isSpace(character: string): boolean {
  return character.trim() === '';
}

export function textAfterWords(text: string, count: number): string {
  let index = 0;
  const characters = Array.from(text);
  for (let word = 0; word < count; word += 1) {
    while (index < characters.length && isSpace(characters[index] ?? '')) index += 1;
    let quote: string | null = null;
    while (index < characters.length) {
      const character = characters[index] ?? '';
      if (quote !== null) {
        if (character === quote) quote = null;
      } else if (character === '"' || character === '“') {
        quote = character === '"' ? '"' : '”';
      } else if (isSpace(character)) {
        break;
      }
      index += 1;
    }
  }
  return characters.slice(index).join('').trim();
}
