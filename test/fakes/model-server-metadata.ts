// What llama-server (`/props`) and Ollama (`/api/show`) declare about a model, in their real response shapes: the
// capability detection reads tools and vision from here before it probes.

export function llamaProps(modelId: string, declaredTools: boolean | undefined, declaredVision: boolean | undefined): Record<string, unknown> {
  const template = declaredTools ? '{%- if tools %}<tools>{{ tools | tojson }}</tools>{%- endif %}' : '{{ messages }}';
  return {
    default_generation_settings: { id: 0, n_ctx: 8192, params: { n_predict: -1, temperature: 0.8 } },
    total_slots: 1,
    model_path: `/models/${modelId}.gguf`,
    chat_template: template,
    ...(declaredTools === undefined
      ? {}
      : {
          chat_template_caps: {
            supports_tools: declaredTools,
            supports_tool_calls: declaredTools,
            supports_parallel_tool_calls: declaredTools,
            supports_system_role: true,
            supports_preserve_reasoning: false,
          },
        }),
    modalities: { vision: declaredVision ?? false, audio: false },
    build_info: 'b6500-1a2b3c4d',
  };
}

export function ollamaShow(declaredTools: boolean | undefined, declaredVision: boolean | undefined): Record<string, unknown> {
  const declared = declaredTools !== undefined || declaredVision !== undefined;
  const capabilities = ['completion', ...(declaredTools ? ['tools'] : []), ...(declaredVision ? ['vision'] : []), 'thinking'];
  return {
    template: '{{ .Prompt }}',
    details: { format: 'gguf', family: 'qwen35', families: ['qwen35'], parameter_size: '2.3B', quantization_level: 'Q4_K_M' },
    model_info: { 'general.architecture': 'qwen35', 'qwen35.context_length': 262144 },
    modified_at: '2026-05-01T00:00:00Z',
    ...(declared ? { capabilities } : {}),
  };
}
