import { answered, requestJson, serverOrigin, type HttpOutcome } from './http.js';
import { isRecord } from '../../src/shared/is-record.js';

// Which server is behind the base URL, and what it declares about the model (each server kind has its own metadata
// endpoints, read before any probe). Every endpoint is optional: a failed GET only means "not this server".

export type ServerKind = 'llama-server' | 'ollama' | 'vllm' | 'lmstudio' | 'mlx' | 'generic';

export interface Fingerprint {
  server: ServerKind | 'unreachable';
  /** Changes when the server build or the model file changes: part of the cache check. */
  signature: string;
  /** undefined: the server declares nothing. */
  declaredTools: boolean | undefined;
  declaredVision: boolean | undefined;
  /** Where the declarations came from, for the report. */
  detail: string;
}

export interface FingerprintOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

export async function fingerprintServer(options: FingerprintOptions): Promise<Fingerprint> {
  const origin = serverOrigin(options.baseUrl);
  const get = (url: string) => requestJson(url, { apiKey: options.apiKey, timeoutMs: options.timeoutMs, ...fetchOption(options) });
  const [props, health, ollamaVersion, models, lmStudioV1, lmStudioV0] = await Promise.all([
    get(`${origin}/props`),
    get(`${origin}/health`),
    get(`${origin}/api/version`),
    get(`${options.baseUrl}/models`),
    get(`${origin}/api/v1/models`),
    get(`${origin}/api/v0/models`),
  ]);
  const all = [props, health, ollamaVersion, models, lmStudioV1, lmStudioV0];
  if (!all.some(answered)) return unreachable('no answer from the server (connection refused or timed out)');
  if (isLoading(props) || isLoading(health)) return unreachable('the server is loading the model');

  if (props.ok && isRecord(props.json) && ('default_generation_settings' in props.json || 'build_info' in props.json)) {
    return llamaServer(props.json, models);
  }
  if (ollamaVersion.ok && isRecord(ollamaVersion.json) && typeof ollamaVersion.json.version === 'string') {
    return ollama(ollamaVersion.json.version, options);
  }
  const lmStudio = lmStudioModel(lmStudioV1, lmStudioV0, options.model);
  if (lmStudio) return lmStudio;
  const listed = modelEntries(models);
  const vllm = listed.find((entry) => entry.owned_by === 'vllm');
  if (vllm) {
    return {
      server: 'vllm',
      signature: `vllm|${String(vllm.id)}|${String(vllm.max_model_len)}`,
      declaredTools: undefined,
      declaredVision: undefined,
      detail: 'vLLM declares nothing',
    };
  }
  if (health.ok && isRecord(health.json)) {
    if ('loaded_tool_parser' in health.json) {
      const parser = health.json.loaded_tool_parser;
      return {
        server: 'mlx',
        signature: `mlx-vlm|${String(health.json.loaded_model)}|${String(parser)}`,
        declaredTools: parser !== null,
        declaredVision: true,
        detail: 'mlx-vlm /health loaded_tool_parser',
      };
    }
    if (Object.keys(health.json).length === 1 && health.json.status === 'ok' && listed.length > 0) {
      return {
        server: 'mlx',
        signature: `mlx_lm|${listed.map((entry) => String(entry.id)).join(',')}`,
        declaredTools: undefined,
        declaredVision: false,
        detail: 'probably mlx_lm (bare /health)',
      };
    }
  }
  return {
    server: 'generic',
    signature: `generic|${listed.map((entry) => String(entry.id)).join(',')}`,
    declaredTools: undefined,
    declaredVision: undefined,
    detail: 'unknown server',
  };
}

function unreachable(detail: string): Fingerprint {
  return { server: 'unreachable', signature: '', declaredTools: undefined, declaredVision: undefined, detail };
}

function isLoading(outcome: HttpOutcome): boolean {
  return !outcome.ok && outcome.error.kind === 'loading';
}

function llamaServer(props: Record<string, unknown>, models: HttpOutcome): Fingerprint {
  const notes: string[] = [];
  let declaredTools: boolean | undefined;
  const caps = props.chat_template_caps;
  if (isRecord(caps) && typeof caps.supports_tools === 'boolean') {
    declaredTools = caps.supports_tools && caps.supports_tool_calls !== false;
    notes.push(`chat_template_caps tools=${String(declaredTools)}`);
  } else if (typeof props.chat_template_tool_use === 'string' && props.chat_template_tool_use !== '') {
    declaredTools = true;
    notes.push('chat_template_tool_use present');
  } else if (typeof props.chat_template === 'string' && /tool_call|\btools\b/.test(props.chat_template.slice(0, 200_000))) {
    declaredTools = true;
    notes.push('chat_template mentions tools');
  }
  let declaredVision: boolean | undefined;
  const modalities = props.modalities;
  if (isRecord(modalities) && typeof modalities.vision === 'boolean') declaredVision = modalities.vision;
  const multimodal =
    models.ok && isRecord(models.json) && Array.isArray(models.json.models)
      ? (models.json.models as unknown[]).some((entry) => isRecord(entry) && Array.isArray(entry.capabilities) && entry.capabilities.includes('multimodal'))
      : false;
  if (multimodal) declaredVision = true;
  if (declaredVision !== undefined) notes.push(`vision=${String(declaredVision)}`);
  return {
    server: 'llama-server',
    signature: `llama-server|${String(props.build_info)}|${String(props.model_path)}`,
    declaredTools,
    declaredVision,
    detail: `llama-server /props: ${notes.join(', ') || 'no declarations'}`,
  };
}

async function ollama(version: string, options: FingerprintOptions): Promise<Fingerprint> {
  const base: Fingerprint = {
    server: 'ollama',
    signature: `ollama|${version}`,
    declaredTools: undefined,
    declaredVision: undefined,
    detail: `Ollama ${version}`,
  };
  if (options.model === '') return { ...base, detail: `${base.detail}, no model name to ask /api/show about` };
  const shown = await requestJson(`${serverOrigin(options.baseUrl)}/api/show`, {
    method: 'POST',
    body: { model: options.model },
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    ...fetchOption(options),
  });
  if (!shown.ok || !isRecord(shown.json)) return { ...base, detail: `${base.detail}, /api/show failed` };
  const signature = `${base.signature}|${String(shown.json.modified_at)}`;
  const capabilities = shown.json.capabilities;
  // Servers before April 2025 have no `capabilities`: probe.
  if (!Array.isArray(capabilities)) return { ...base, signature, detail: `${base.detail}, /api/show has no capabilities` };
  return {
    server: 'ollama',
    signature,
    declaredTools: capabilities.includes('tools'),
    declaredVision: capabilities.includes('vision'),
    detail: `${base.detail}, /api/show capabilities [${capabilities.map(String).join(', ')}]`,
  };
}

function lmStudioModel(v1: HttpOutcome, v0: HttpOutcome, model: string): Fingerprint | undefined {
  if (v1.ok && isRecord(v1.json) && Array.isArray(v1.json.models)) {
    const entries = (v1.json.models as unknown[]).filter(isRecord);
    const loaded = (entry: Record<string, unknown>) => Array.isArray(entry.loaded_instances) && entry.loaded_instances.length > 0;
    const entry =
      entries.find(
        (item) =>
          item.key === model || (Array.isArray(item.loaded_instances) && item.loaded_instances.some((instance) => isRecord(instance) && instance.id === model)),
      ) ??
      entries.find(loaded) ??
      entries[0];
    const capabilities = entry && isRecord(entry.capabilities) ? entry.capabilities : {};
    return {
      server: 'lmstudio',
      signature: `lmstudio|v1|${String(entry?.key)}`,
      declaredTools: typeof capabilities.trained_for_tool_use === 'boolean' ? capabilities.trained_for_tool_use : undefined,
      declaredVision: typeof capabilities.vision === 'boolean' ? capabilities.vision : entry?.type === 'vlm',
      detail: 'LM Studio /api/v1/models capabilities',
    };
  }
  if (v0.ok && isRecord(v0.json) && Array.isArray(v0.json.data)) {
    const entries = (v0.json.data as unknown[]).filter(isRecord);
    const entry = entries.find((item) => item.id === model) ?? entries.find((item) => item.state === 'loaded') ?? entries[0];
    const capabilities = entry?.capabilities;
    return {
      server: 'lmstudio',
      signature: `lmstudio|v0|${String(entry?.id)}`,
      declaredTools: Array.isArray(capabilities) ? capabilities.includes('tool_use') : undefined,
      declaredVision: entry?.type === 'vlm',
      detail: 'LM Studio /api/v0/models capabilities',
    };
  }
  return undefined;
}

function modelEntries(models: HttpOutcome): Record<string, unknown>[] {
  if (!models.ok || !isRecord(models.json) || !Array.isArray(models.json.data)) return [];
  return (models.json.data as unknown[]).filter(isRecord);
}

function fetchOption(options: { fetch?: typeof globalThis.fetch }): { fetch?: typeof globalThis.fetch } {
  return options.fetch ? { fetch: options.fetch } : {};
}
