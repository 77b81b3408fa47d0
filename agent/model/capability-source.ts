import type { Keyv } from 'keyv';
import type { CapabilitySource } from '../agent.js';
import { detectCapabilities, forgetCapabilities, type CapabilityReport } from './capabilities.js';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/shared/log.js';
import type { ModelCapabilities } from '../../src/shared/types.js';

/** Detected once per server + model, kept in memory and in the keyv cache; re-detected after a tool error. */
export class DetectedCapabilities implements CapabilitySource {
  private report: CapabilityReport | undefined;
  private pending: Promise<CapabilityReport> | undefined;

  constructor(
    private readonly options: {
      config: Pick<Config, 'MODEL_BASE_URL' | 'MODEL_API_KEY' | 'MODEL_TOOLS' | 'MODEL_VISION'>;
      model: () => Promise<string>;
      cache: Keyv;
      log: Logger;
      timeoutMs?: number;
    },
  ) {}

  async current(): Promise<ModelCapabilities> {
    const report = await this.detailed();
    return { tools: report.tools, vision: report.vision };
  }

  /** The full report (for /status and logs). */
  async detailed(): Promise<CapabilityReport> {
    if (this.report) return this.report;
    this.pending ??= this.detect().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  async forget(): Promise<void> {
    this.report = undefined;
    await forgetCapabilities(this.options.cache, this.options.config.MODEL_BASE_URL, await this.options.model());
  }

  private async detect(): Promise<CapabilityReport> {
    const { config, cache, log } = this.options;
    const report = await detectCapabilities({
      baseUrl: config.MODEL_BASE_URL,
      apiKey: config.MODEL_API_KEY,
      model: await this.options.model(),
      overrides: { tools: config.MODEL_TOOLS, vision: config.MODEL_VISION },
      cache,
      log,
      timeoutMs: this.options.timeoutMs ?? 15_000,
    });
    // An unreachable server is asked again next turn; anything else is kept.
    if (report.server !== 'unreachable') this.report = report;
    log.info({ server: report.server, tools: report.tools, vision: report.vision, toolsSource: report.toolsSource, visionSource: report.visionSource }, 'model capabilities');
    return report;
  }
}
