// `npm run bench -- <name> [options]`: runs bench/<name>.ts, which prints its figures as JSON on stdout.
const benches = ['turn', 'guards', 'retrieval', 'retrieval-postgres', 'scale', 'search', 'log', 'platform', 'ocr', 'dlp', 'soak', 'hardening'] as const;

const [name, ...rest] = process.argv.slice(2);
if (!name || !(benches as readonly string[]).includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${benches.join('|')}> [options]\n`);
  process.exit(2);
}
const module = (await import(`./${name}.ts`)) as { main(argv: string[]): Promise<void> };
await module.main(rest);
