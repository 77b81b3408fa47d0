// `--quick` on every bench: its own short settings appended after the given ones (each bench reads the first
// occurrence of an option, so what the user typed wins). test/bench/ runs every bench's quick mode once, so a bench
// that no longer runs fails the suite instead of rotting.

export function isQuick(argv: readonly string[]): boolean {
  return argv.includes('--quick');
}

export function withQuickSettings(argv: readonly string[], settings: readonly string[]): string[] {
  return isQuick(argv) ? [...argv, ...settings] : [...argv];
}
