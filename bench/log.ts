import { Writable } from 'node:stream';
import { createLogRedactor } from '../src/dlp/redact-credentials.js';
import { createLogger } from '../src/shared/log.js';
import { fake, randomText } from '../test/support/fake-tokens.js';
import { isQuick } from './quick.js';

// `npm run bench -- log [--quick | REPEATS]`: the cost of redaction per log line — one `log.warn` through pino into a stream that
// drops the bytes, with and without the redactor (the baseline, same run), and the redactor alone on the serialized
// line. Lines: 4 KB of ordinary Thai/English text, 4 KB with one credential, 4 KB full of candidate prefixes and no
// credential (every pattern runs), 100 KB with and without a credential, 100 KB of one base64 run.

const secrets = [`saeng-local-${randomText(24, 401)}`];

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function time(run: () => unknown, repeats: number): { p50Us: number; p99Us: number; maxUs: number; runs: number } {
  const samples: number[] = [];
  for (let warm = 0; warm < Math.min(200, repeats); warm++) run(); // warm-up: JIT tiers, regex compilation
  for (let index = 0; index < repeats; index++) {
    const started = performance.now();
    run();
    samples.push((performance.now() - started) * 1000);
  }
  return { p50Us: round(percentile(samples, 0.5)), p99Us: round(percentile(samples, 0.99)), maxUs: round(Math.max(...samples)), runs: repeats };
}

function ordinaryText(length: number): string {
  const sentences = [
    'ร้านเปิด 08:00–20:00 ทุกวัน ราคาสินค้า 1,250 บาท ',
    'The model server answered 503 Loading model; retrying. ',
    'knowledge: document indexed for full text only (conversation telegram:-1001234567890:42). ',
    'ผู้ใช้ถามเรื่องการคืนสินค้า "ภายใน 7 วัน" \\ ตอบจากฐานความรู้ ',
  ];
  let text = '';
  for (let index = 0; text.length < length; index++) text += sentences[index % sentences.length];
  return text.slice(0, length);
}

/** Every rule's gate opens (aws, secret, sk-, xox, .ey, :a, /bot …) and no pattern finds a credential. */
function candidateText(length: number): string {
  const near = 'aws secret key sk-learn xoxo .eyes Note:a /bottle AIza -----begin ghp_x github_pat_ _live_ ';
  let text = '';
  while (text.length < length) text += near + ordinaryText(200);
  return text.slice(0, length);
}

function withCredential(text: string): string {
  const middle = Math.floor(text.length / 2);
  return `${text.slice(0, middle)} token ${fake.githubClassic()} ${text.slice(middle)}`;
}

function measure(name: string, error: string, repeats: number) {
  const sink = new Writable({ write: (_chunk, _encoding, callback) => callback() });
  const plain = createLogger({ level: 'info', destination: sink });
  const redacted = createLogger({ level: 'info', destination: sink, redact: createLogRedactor(secrets) });
  const redact = createLogRedactor(secrets);
  const line = `${JSON.stringify({ level: 40, time: Date.now(), conversation: 'console:local', error, msg: 'turn failed' })}\n`;
  return {
    name,
    lineBytes: Buffer.byteLength(line),
    baselinePino: time(() => plain.warn({ conversation: 'console:local', error }, 'turn failed'), repeats),
    pinoWithRedaction: time(() => redacted.warn({ conversation: 'console:local', error }, 'turn failed'), repeats),
    redactorAlone: time(() => redact(line), repeats),
    changed: redact(line) !== line,
  };
}

export async function main(argv: string[]): Promise<void> {
  const quick = isQuick(argv);
  const given = Number(argv.find((argument) => argument !== '--quick') ?? 2000);
  const repeats = quick ? 50 : given;
  const results = [
    measure('4 KB ordinary', ordinaryText(4_096), repeats),
    measure('4 KB one credential', withCredential(ordinaryText(4_096)), repeats),
    measure('4 KB candidates, no credential', candidateText(4_096), repeats),
    measure('100 KB ordinary', ordinaryText(102_400), Math.ceil(repeats / 10)),
    measure('100 KB one credential', withCredential(ordinaryText(102_400)), Math.ceil(repeats / 10)),
    measure('100 KB candidates, no credential', candidateText(102_400), Math.ceil(repeats / 10)),
    measure('100 KB one base64 run', `aws secret ${randomText(102_400, 402)}`, Math.ceil(repeats / 10)),
  ];
  process.stdout.write(`${JSON.stringify({ bench: 'log', quick, node: process.version, results }, null, 2)}\n`);
  await Promise.resolve();
}
