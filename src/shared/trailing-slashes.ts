/** A URL without its trailing slashes, by a loop: /\/+$/ backtracks quadratically on many slashes then another character. */
export function trimTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end -= 1;
  return url.slice(0, end);
}
