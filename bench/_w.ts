import { scanForCredentials } from '../src/dlp/scan.js';
import { worstCaseMessage } from './dlp-timing.js';
import { formatRulesOnly } from './dlp-baseline.js';
const m = worstCaseMessage(960 * 1024);
for (const [n, f] of [['scan', (t: string) => scanForCredentials(t)], ['base', formatRulesOnly]] as const) { f(m); const a: number[] = []; for (let i = 0; i < 7; i++) { const s = performance.now(); f(m); a.push(performance.now() - s); } a.sort((x, y) => x - y); console.log(n, a[3].toFixed(1), a[6].toFixed(1)); }
