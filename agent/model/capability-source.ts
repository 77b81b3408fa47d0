import type { Keyv } from 'keyv';
import { detectCapabilities, forgetCapabilities, type CapabilityReport, type Override } from './capabilities.js';
import type { ServerKind } from './fingerprint.js';
import type { CapabilitySource } from './types.js';
import type { Logger } from '../../src/shared/log.js';
import type { ModelCapabilities } from '../../src/shared/types.js';

/** Where the model server is, and the operator's tools/vision overrides ('auto' = detect). */
export interface CapabilitySettings {
  baseUrl: string;
  apiKey: string;
  tools: Override;
  vision: Override;
}

/** Longest wait for the probe's answer (32 tokens, not streamed). */
const probeTimeoutMs = 15_000;

/** Detected once per server + model, kept in memory and in the keyv cache; re-detected after a tool error. */
export class DetectedCapabilities implements CapabilitySource {
  private report: CapabilityReport | undefined;
  private pending: Promise<CapabilityReport> | undefined;

  constructor(
    private readonly options: {
      settings: CapabilitySettings;
      model: () => Promise<string>;
      cache: Keyv;
      log: Logger;
      /** MODEL_TIMEOUT_MS: the probe waits no longer than a model call would (and never more than 15 s). */
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

  /** The server kind of the kept report; undefined before the first detection. */
  server(): ServerKind | undefined {
    return this.report?.server === 'unreachable' ? undefined : this.report?.server;
  }

  async forget(): Promise<void> {
    this.report = undefined;
    await forgetCapabilities(this.options.cache, this.options.settings.baseUrl, await this.options.model());
  }

  private async detect(): Promise<CapabilityReport> {
    const { settings, cache, log } = this.options;
    const report = await detectCapabilities({
      baseUrl: settings.baseUrl,
      apiKey: settings.apiKey,
      model: await this.options.model(),
      overrides: { tools: settings.tools, vision: settings.vision },
      cache,
      log,
      timeoutMs: Math.min(this.options.timeoutMs ?? probeTimeoutMs, probeTimeoutMs),
    });
    // An unreachable server is asked again next turn; anything else is kept.
    if (report.server !== 'unreachable') this.report = report;
    log.info(
      { server: report.server, tools: report.tools, vision: report.vision, toolsSource: report.toolsSource, visionSource: report.visionSource },
      'model capabilities',
    );
    return report;
  }
}
