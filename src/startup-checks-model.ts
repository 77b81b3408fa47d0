import { modelServerAnswers, watchUntilReachable } from './model-server-wait.js';
import { say, type Localized } from './shared/i18n.js';
import type { Logger } from './shared/log.js';
import type { Language } from './shared/types.js';

// The model server at start: one quick look (a refused port answers at once; a filtered one costs at most the
// probe time-out), a warning naming MODEL_BASE_URL before the console greets anyone, and a background watch that
// says once when the server answers. Start-up never waits for the model (SAENG_WAIT_FOR_MODEL=1 does that, before).

const texts = {
  reachableAtStart: { th: 'เซิร์ฟเวอร์โมเดลตอนเริ่ม: ติดต่อได้ที่ {url}', en: 'model server at start: reachable at {url}' },
  unreachableAtStart: { th: 'เซิร์ฟเวอร์โมเดลตอนเริ่ม: ยังติดต่อไม่ได้ที่ {url}', en: 'model server at start: not reachable at {url}' },
  unreachable: {
    th:
      'ติดต่อเซิร์ฟเวอร์โมเดลที่ MODEL_BASE_URL={url} ไม่ได้: ตรวจว่าเปิด llama-server หรือ ollama อยู่ พอร์ตตรงกับใน URL ' +
      'และ URL ลงท้ายด้วย /v1 (ระหว่างนี้ยังตอบคำถามไม่ได้ แสงจะลองติดต่อใหม่เรื่อย ๆ ดูได้ด้วย /status ว่าติดต่อได้หรือยัง)',
    en:
      'cannot reach the model server at MODEL_BASE_URL={url}: check that llama-server or ollama is running, that the ' +
      'port matches the URL, and that the URL ends in /v1 (questions cannot be answered until then; Saeng keeps trying, ' +
      'and /status shows whether it answers)',
  },
  reachable: { th: 'ติดต่อเซิร์ฟเวอร์โมเดลได้แล้ว: เรียกเครื่องมือ{tools} ดูรูป{vision}', en: 'model server reachable: tools {tools}, vision {vision}' },
  can: { th: 'ได้', en: 'on' },
  cannot: { th: 'ไม่ได้', en: 'off' },
} satisfies Record<string, Localized>;

/** The capability detection of the app (agent/model/capability-source.ts), as much as this needs. */
export interface CapabilityDetail {
  detailed(): Promise<{ server: string; tools: boolean; vision: boolean }>;
}

export interface ModelServerCheckOptions {
  baseUrl: string;
  language: Language;
  log: Logger;
  capabilities: CapabilityDetail;
  /** Between looks in the background: each in turn, the last one repeating. */
  recheckDelaysMs?: readonly number[];
  probeTimeoutMs?: number;
}

/** Looks once, logs the state (and a warning when down), and watches in the background; returns the stop. */
export async function checkModelServerAtStart(options: ModelServerCheckOptions): Promise<() => void> {
  const { log, language } = options;
  const url = withoutPassword(options.baseUrl);
  if (await modelServerAnswers(options.baseUrl, options.probeTimeoutMs ?? 2_000)) {
    log.info({ modelServer: 'reachable', baseUrl: url }, say(texts.reachableAtStart, language, { url }));
    return () => undefined;
  }
  log.info({ modelServer: 'unreachable', baseUrl: url }, say(texts.unreachableAtStart, language, { url }));
  log.warn({ variable: 'MODEL_BASE_URL', baseUrl: url }, say(texts.unreachable, language, { url }));
  return watchUntilReachable(options.baseUrl, {
    delaysMs: options.recheckDelaysMs ?? [10_000, 20_000, 30_000],
    onReachable: async () => {
      const report = await options.capabilities.detailed();
      if (report.server === 'unreachable') return false;
      const word = (on: boolean): string => say(on ? texts.can : texts.cannot, language);
      log.info(
        { modelServer: report.server, baseUrl: url, tools: report.tools, vision: report.vision },
        say(texts.reachable, language, { tools: word(report.tools), vision: word(report.vision) }),
      );
      return true;
    },
  });
}

/** MODEL_BASE_URL as a log line may show it: a password in the URL is not. */
function withoutPassword(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    if (!url.password) return baseUrl;
    url.password = '***';
    return url.href;
  } catch {
    return baseUrl;
  }
}
