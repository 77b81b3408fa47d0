// `npm run bench -- <name> [--quick] [options]`: runs bench/<name>.ts, which prints its figures as JSON on stdout;
// --quick is a short run of every bench (test/bench/ runs each once).
const benches = [
  'turn',
  'model-work',
  'guards',
  'retrieval',
  'retrieval-postgres',
  'scale',
  'search',
  'log',
  'platform',
  'ocr',
  'dlp',
  'soak',
  'hardening',
  'summary',
] as const;

const [name, ...rest] = process.argv.slice(2);
if (!name || !(benches as readonly string[]).includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${benches.join('|')}> [--quick] [options]\n`);
  process.exit(2);
}
const module = (await import(`./${name}.ts`)) as { main(argv: string[]): Promise<void> };
await module.main(rest);
