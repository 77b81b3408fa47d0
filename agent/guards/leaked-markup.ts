import { scanMarkup } from './markup-scan.js';

// Leaked tool-call markup in a model's text (a call the server did not parse). The turn runs every call whose name is
// one of its tools (after validating the arguments with the tool's schema) and continues the loop; everything else is
// cut. The user never sees markup. Detection itself lives in markup-scan.ts, shared with the stream monitor.

export interface LeakedToolCall {
  name: string;
  argumentsText: string;
}

export interface LeakedMarkup {
  /** Calls of registered tools, in text order. */
  calls: LeakedToolCall[];
  /** The text with every markup segment removed. */
  cleanedText: string;
  found: boolean;
}

function argumentsText(args: unknown): string {
  if (typeof args === 'string') return args.trim() === '' ? '{}' : args;
  return JSON.stringify(args ?? {}) ?? '{}';
}

export function findLeakedToolCalls(text: string, toolNames: readonly string[]): LeakedMarkup {
  const { segments } = scanMarkup(text, { final: true });
  if (segments.length === 0) return { calls: [], cleanedText: text, found: false };
  const known = new Set(toolNames);
  const calls: LeakedToolCall[] = [];
  const kept: string[] = [];
  let cursor = 0;
  for (const segment of segments) {
    kept.push(text.slice(cursor, segment.start));
    cursor = segment.end;
    for (const call of segment.calls) {
      if (known.has(call.name)) calls.push({ name: call.name, argumentsText: argumentsText(call.args) });
    }
  }
  kept.push(text.slice(cursor));
  const cleanedText = kept
    .join('')
    .replace(/(?<![ \t])[ \t]{1,64}\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { calls, cleanedText, found: true };
}
