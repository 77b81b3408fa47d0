import { z } from 'zod';
import type { Logger } from '../../src/shared/log.js';
import { trimTrailingSlashes } from '../../src/shared/trailing-slashes.js';
import { fingerprintServer, type Fingerprint, type ServerKind } from './fingerprint.js';
import { probeTools, type ProbeVerdict } from './probe.js';

// Tools and vision per server + model (docs/architecture.md, "Model client"): declarations first, then one probe for
// tools (declarations overstate it); vision is never probed. Config overrides win. Verdicts are cached with the
// server's signature, so a new build or model file is noticed; an unreachable server is never cached.

export type Override = 'auto' | 'on' | 'off';
export type CapabilitySourceKind = 'config' | 'declared' | 'probe' | 'refusal' | 'default';

export interface CapabilityReport {
  tools: boolean;
  vision: boolean;
  server: ServerKind | 'unreachable';
  toolsSource: CapabilitySourceKind;
  visionSource: CapabilitySourceKind;
  detail: string;
  detectedAt: string;
}

/** Anything with keyv's get/set (delete is used when present). */
export interface CapabilityCache {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
  delete?(key: string): Promise<unknown>;
}

export interface DetectCapabilitiesOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  overrides: { tools: Override; vision: Override };
  cache?: CapabilityCache;
  log: Logger;
  fetch?: typeof globalThis.fetch;
  timeoutMs: number;
  now?: () => Date;
}

const verdictSchema = z.object({ value: z.boolean(), source: z.enum(['declared', 'probe', 'refusal', 'default']), detail: z.string() });
type Verdict = z.infer<typeof verdictSchema>;
const cachedSchema = z.object({
  signature: z.string(),
  detectedAt: z.string(),
  tools: verdictSchema.optional(),
  vision: verdictSchema.optional(),
});
type CachedCapabilities = z.infer<typeof cachedSchema>;

/** Metadata GETs are cheap: a short time-out keeps start-up quick when a port is filtered. */
const fingerprintTimeoutMs = 5_000;

export async function detectCapabilities(options: DetectCapabilitiesOptions): Promise<CapabilityReport> {
  const baseUrl = trimTrailingSlashes(options.baseUrl);
  const now = (options.now ?? (() => new Date()))().toISOString();
  const fingerprint = await fingerprintServer({
    baseUrl,
    apiKey: options.apiKey,
    model: options.model,
    timeoutMs: Math.min(options.timeoutMs, fingerprintTimeoutMs),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (fingerprint.server === 'unreachable') return unreachableReport(options, fingerprint.detail, now);

  const key = cacheKey(baseUrl, options.model);
  const cached = await readCache(options, key, fingerprint.signature);
  const notes = [fingerprint.detail];
  const toCache: CachedCapabilities = { signature: fingerprint.signature, detectedAt: now, tools: cached?.tools, vision: cached?.vision };
  let detectedNow = false;

  let tools: Verdict | undefined;
  if (options.overrides.tools === 'auto') {
    tools = cached?.tools;
    if (tools === undefined) {
      const decided = await decideTools(options, baseUrl, fingerprint, fingerprint.server);
      if (decided === 'unreachable') return unreachableReport(options, `${fingerprint.detail}; the probe got no answer`, now);
      tools = decided.verdict;
      detectedNow = true;
      if (decided.cacheable) toCache.tools = tools;
    }
    notes.push(tools.detail);
  }
  let vision: Verdict | undefined;
  if (options.overrides.vision === 'auto') {
    vision = cached?.vision;
    if (vision === undefined) {
      vision = declaredVision(fingerprint);
      toCache.vision = vision;
      detectedNow = true;
    }
    notes.push(vision.detail);
  }
  if (options.cache && detectedNow) await options.cache.set(key, toCache);
  const report: CapabilityReport = {
    tools: tools?.value ?? options.overrides.tools === 'on',
    vision: vision?.value ?? options.overrides.vision === 'on',
    server: fingerprint.server,
    toolsSource: tools?.source ?? 'config',
    visionSource: vision?.source ?? 'config',
    detail: notes.join('; '),
    detectedAt: detectedNow || cached === undefined ? now : cached.detectedAt,
  };
  options.log.debug({ ...report, cached: cached !== undefined }, 'capabilities detected');
  return report;
}

/** Drops the cached verdict so the next detection probes again (after a tool-related error). */
export async function forgetCapabilities(cache: CapabilityCache, baseUrl: string, model: string): Promise<void> {
  const key = cacheKey(trimTrailingSlashes(baseUrl), model);
  if (cache.delete) await cache.delete(key);
  else await cache.set(key, null);
}

async function decideTools(
  options: DetectCapabilitiesOptions,
  baseUrl: string,
  fingerprint: Fingerprint,
  server: ServerKind,
): Promise<{ verdict: Verdict; cacheable: boolean } | 'unreachable'> {
  if (fingerprint.declaredTools === false) {
    return { verdict: { value: false, source: 'declared', detail: 'tools declared unsupported' }, cacheable: true };
  }
  const probe: ProbeVerdict = await probeTools({
    baseUrl,
    apiKey: options.apiKey,
    model: options.model,
    server,
    timeoutMs: options.timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const agreed = fingerprint.declaredTools === true ? 'declared' : 'probe';
  switch (probe.outcome) {
    case 'native':
    case 'text':
      return { verdict: { value: true, source: agreed, detail: probe.detail }, cacheable: true };
    case 'refused':
      return { verdict: { value: false, source: 'refusal', detail: probe.detail }, cacheable: true };
    case 'none':
      return { verdict: { value: false, source: 'probe', detail: probe.detail }, cacheable: true };
    case 'unreachable':
      return 'unreachable';
    case 'failed':
      // Not proof of anything (bad request, context overflow): run without tools now, ask again next time.
      return { verdict: { value: false, source: 'default', detail: probe.detail }, cacheable: false };
  }
}

function declaredVision(fingerprint: Fingerprint): Verdict {
  if (fingerprint.declaredVision === undefined) return { value: false, source: 'default', detail: 'vision not declared' };
  return { value: fingerprint.declaredVision, source: 'declared', detail: `vision declared ${fingerprint.declaredVision ? 'supported' : 'unsupported'}` };
}

async function readCache(options: DetectCapabilitiesOptions, key: string, signature: string): Promise<CachedCapabilities | undefined> {
  if (!options.cache) return undefined;
  const parsed = cachedSchema.safeParse(await options.cache.get(key));
  return parsed.success && parsed.data.signature === signature ? parsed.data : undefined;
}

function unreachableReport(options: DetectCapabilitiesOptions, detail: string, now: string): CapabilityReport {
  const { tools, vision } = options.overrides;
  options.log.debug({ detail }, 'model server unreachable during capability detection');
  return {
    tools: tools === 'on',
    vision: vision === 'on',
    server: 'unreachable',
    toolsSource: tools === 'auto' ? 'default' : 'config',
    visionSource: vision === 'auto' ? 'default' : 'config',
    detail,
    detectedAt: now,
  };
}

function cacheKey(baseUrl: string, model: string): string {
  return `capabilities:${baseUrl}|${model}`;
}
