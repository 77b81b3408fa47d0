/** How many leading items (characters, tokens) two sequences share: what a prompt cache can reuse. */
export function commonPrefixLength<T>(left: ArrayLike<T>, right: ArrayLike<T>): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left[index] === right[index]) index++;
  return index;
}
