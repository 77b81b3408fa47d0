import { codeRanges, insideRanges } from './code-spans.js';
import { callFromFunctionBody, callFromGlmBody, callsFromInvokes, callsFromJson, isCallShapedObject, jsonValueEnd, type ParsedCall } from './markup-parse.js';

// Finds tool-call markup in model text (chat templates the server did not parse): Hermes/Qwen `<tool_call>`,
// Qwen3-Coder `<function=…><parameter=…>`, `<function=name>{json}`, GLM `<arg_key>`, Anthropic
// `<function_calls>/<invoke>`, Mistral `[TOOL_CALLS]`, Llama `<|python_tag|>`, Gemma `<|tool_call>`, chat-template
// tokens, orphaned closers and a bare `{"name":…,"arguments":…}` on its own line. Prose that mentions a tag ("the
// <tool_call> tag"), ordinary JSON and anything inside Markdown code stay text. One pass over the candidate markers;
// every body scan is bounded by the next top-level opener, so the whole scan is linear in the text length.

export interface MarkupSegment {
  start: number;
  end: number;
  /** The call text is whole (closer seen or JSON closed); an incomplete one runs to the end of the text. */
  complete: boolean;
  calls: ParsedCall[];
}

export interface MarkupScan {
  segments: MarkupSegment[];
  /** A marker that the text so far cannot classify (`<tool_call>` at the very end…); streaming waits for more. */
  undecidedAt?: number;
}

const markerPattern =
  /<\|(?:python_tag|im_start|im_end|endoftext|eot_id|eom_id|start_header_id)\|>|<\|tool_call>|<\/?tool_call>|<function=|<\/(?:function|parameter|invoke|function_calls|arg_value)>|<function_calls>|<invoke\s|\[TOOL_CALLS\]|(?<![^\n])[ \t]{0,8}\{\s{0,8}"name"\s{0,8}:/g;

/** Markers that start a new call block: a body never runs past one of them. */
const topOpeners = new Set([
  '<tool_call>',
  '[TOOL_CALLS]',
  '<|python_tag|>',
  '<function_calls>',
  '<|tool_call>',
  '<|im_start|>',
  '<|im_end|>',
  '<|endoftext|>',
  '<|eot_id|>',
  '<|start_header_id|>',
]);
const cutRest = new Set(['<|im_end|>', '<|endoftext|>', '<|eot_id|>', '<|start_header_id|>']);
const closers = new Set(['</tool_call>', '</function>', '</parameter>', '</invoke>', '</function_calls>', '</arg_value>']);
const bareJsonLimit = 4096;
const maxBareJsonProbes = 16;

interface Candidate {
  index: number;
  marker: string;
}

type Probe = { state: 'none' } | { state: 'undecided' } | { state: 'markup'; segment: MarkupSegment };

const none: Probe = { state: 'none' };
const undecided: Probe = { state: 'undecided' };

class Scanner {
  private readonly candidates: Candidate[] = [];
  private readonly textEnd: number;
  private bareJsonProbes = 0;

  constructor(
    private readonly text: string,
    from: number,
    /** False while streaming: the text may still grow, so "needs more text" is a real answer. */
    private readonly final: boolean,
  ) {
    this.textEnd = text.length;
    markerPattern.lastIndex = from;
    for (let match = markerPattern.exec(text); match !== null; match = markerPattern.exec(text)) {
      const bare = !match[0].startsWith('<') && !match[0].startsWith('[');
      this.candidates.push(bare ? { index: match.index + match[0].indexOf('{'), marker: '{' } : { index: match.index, marker: match[0] });
    }
  }

  scan(code: readonly [number, number][]): MarkupScan {
    const segments: MarkupSegment[] = [];
    let consumedTo = 0;
    for (let position = 0; position < this.candidates.length; position++) {
      const candidate = this.candidates[position];
      if (!candidate || candidate.index < consumedTo || insideRanges(code, candidate.index)) continue;
      const probe = this.probe(candidate, position);
      if (probe.state === 'undecided') return { segments, undecidedAt: candidate.index };
      if (probe.state === 'none') continue;
      segments.push(probe.segment);
      consumedTo = probe.segment.end;
    }
    return { segments };
  }

  /** Index of the next top-level opener after candidate `position`, or the end of the text. */
  private regionEnd(position: number, alsoStopAt: readonly string[] = []): number {
    for (let next = position + 1; next < this.candidates.length; next++) {
      const candidate = this.candidates[next];
      if (candidate && (topOpeners.has(candidate.marker) || alsoStopAt.includes(candidate.marker))) return candidate.index;
    }
    return this.textEnd;
  }

  /** The first candidate `marker` in (position, end). */
  private closerBefore(position: number, marker: string, end: number): Candidate | undefined {
    for (let next = position + 1; next < this.candidates.length; next++) {
      const candidate = this.candidates[next];
      if (!candidate || candidate.index >= end) return undefined;
      if (candidate.marker === marker) return candidate;
    }
    return undefined;
  }

  private markup(start: number, end: number, complete: boolean, calls: ParsedCall[] = []): Probe {
    return { state: 'markup', segment: { start, end, complete, calls } };
  }

  /** At the end of the text: markup cut short in a final text, "wait for more" while streaming. */
  private atEnd(index: number): Probe {
    return this.final ? this.markup(index, this.textEnd, false) : undecided;
  }

  private probe(candidate: Candidate, position: number): Probe {
    const { marker, index } = candidate;
    const after = index + marker.length;
    if (marker === '<tool_call>') return this.probeToolCall(index, after, position);
    if (marker === '<function=') return this.probeFunction(index, after, position);
    if (marker === '[TOOL_CALLS]' || marker === '<|python_tag|>') return this.probeJsonAfter(index, after, position);
    if (marker === '<function_calls>') return this.probeBlock(index, position, '</function_calls>', callsFromInvokes);
    if (marker.startsWith('<invoke')) return this.probeInvoke(index, position);
    if (marker === '<|tool_call>') return this.probeBlock(index, position, '<tool_call|>', () => []);
    if (cutRest.has(marker)) return this.markup(index, this.textEnd, true);
    if (marker === '<|eom_id|>') return this.markup(index, after, true);
    if (marker === '<|im_start|>') return this.probeImStart(index, after);
    if (closers.has(marker)) return this.isOrphanedCloser(index, after) ? this.markup(index, after, true) : none;
    if (marker === '{') return this.probeBareJson(index, position);
    return none;
  }

  private probeToolCall(index: number, after: number, position: number): Probe {
    const end = this.regionEnd(position);
    const bodyStart = skipSpaces(this.text, after, end);
    if (bodyStart >= this.textEnd) return this.atEnd(index);
    const head = this.text.slice(bodyStart, Math.min(end, bodyStart + 80));
    const closer = this.closerBefore(position, '</tool_call>', end);
    const bodyEnd = closer ? closer.index : end;
    const segmentEnd = closer ? closer.index + closer.marker.length : end;
    if (head.startsWith('{') || head.startsWith('[')) {
      const jsonEnd = jsonValueEnd(this.text, bodyStart, bodyEnd);
      const calls = jsonEnd > 0 ? callsFromJson(this.text.slice(bodyStart, jsonEnd)) : [];
      return this.markup(index, segmentEnd, closer !== undefined || jsonEnd > 0, calls);
    }
    if (head.startsWith('<function=')) {
      const inner = this.candidates[position + 1];
      const probe = inner?.marker === '<function=' ? this.probeFunction(inner.index, inner.index + inner.marker.length, position + 1) : none;
      const calls = probe.state === 'markup' ? probe.segment.calls : [];
      const complete = closer !== undefined || (probe.state === 'markup' && probe.segment.complete);
      return this.markup(index, segmentEnd, complete, calls);
    }
    if (/^[A-Za-z_][\w.-]{0,63}\s{0,8}<arg_key>/.test(head)) {
      const call = callFromGlmBody(this.text.slice(bodyStart, bodyEnd));
      return this.markup(index, segmentEnd, closer !== undefined, call ? [call] : []);
    }
    // Text that may still become `<function=` or a GLM `name <arg_key>` while streaming.
    const reachesEnd = bodyStart + head.length >= this.textEnd;
    if (reachesEnd && ('<function='.startsWith(head) || /^[A-Za-z_][\w.-]{0,63}\s{0,8}<?[a-z_]{0,7}$/.test(head))) {
      return this.final && !head.startsWith('<') ? none : this.atEnd(index);
    }
    return none; // "the <tool_call> tag": prose
  }

  private probeFunction(index: number, after: number, position: number): Probe {
    const head = /^([A-Za-z_][\w.-]{0,63})>/.exec(this.text.slice(after, after + 66));
    if (!head) {
      const partialName = this.textEnd - after < 66 && /^[\w.-]{0,64}$/.test(this.text.slice(after, this.textEnd));
      return partialName ? this.atEnd(index) : none;
    }
    const bodyStart = after + head[0].length;
    const end = this.regionEnd(position, ['<function=']);
    const closer = this.closerBefore(position, '</function>', end);
    const body = this.text.slice(bodyStart, closer ? closer.index : end);
    const segmentEnd = closer ? closer.index + closer.marker.length : end;
    return this.markup(index, segmentEnd, closer !== undefined, [callFromFunctionBody(head[1] ?? '', body)]);
  }

  /** `[TOOL_CALLS] [{…}]`, `[TOOL_CALLS]name[ARGS]{…}`, `<|python_tag|>{…}` (pythonic calls are cut, not run). */
  private probeJsonAfter(index: number, after: number, position: number): Probe {
    const end = this.regionEnd(position);
    const bodyStart = skipSpaces(this.text, after, end);
    const named = /^([A-Za-z_][\w.-]{0,63})(?:\[ARGS\])?/.exec(this.text.slice(bodyStart, bodyStart + 72));
    const jsonStart = named ? skipSpaces(this.text, bodyStart + named[0].length, end) : bodyStart;
    const opener = this.text[jsonStart];
    if (opener === '{' || opener === '[') {
      const jsonEnd = jsonValueEnd(this.text, jsonStart, end);
      if (jsonEnd < 0) return this.markup(index, end, false);
      const json = this.text.slice(jsonStart, jsonEnd);
      const calls = named ? [{ name: named[1] ?? '', args: parseObject(json) ?? {} }] : callsFromJson(json);
      return this.markup(index, jsonEnd, true, calls);
    }
    const lineEnd = this.text.indexOf('\n', jsonStart);
    if (lineEnd >= 0 && lineEnd < end) return this.markup(index, lineEnd, true);
    return this.markup(index, end, false);
  }

  private probeInvoke(index: number, position: number): Probe {
    const head = this.text.slice(index, index + 40);
    if (/^<invoke\s{1,8}name\s{0,4}=/.test(head)) {
      return this.probeBlock(index, position, '</invoke>', callsFromInvokes, ['<invoke ']);
    }
    return !this.final && index + head.length >= this.textEnd && head.length < 20 ? undecided : none;
  }

  private probeBlock(index: number, position: number, closerMarker: string, parse: (body: string) => ParsedCall[], alsoStopAt: readonly string[] = []): Probe {
    const end = this.regionEnd(position, alsoStopAt);
    // Gemma's `<tool_call|>` is not a scanned marker: look for it in the (bounded) region.
    const plainAt = closerMarker === '<tool_call|>' ? this.text.slice(index, end).indexOf(closerMarker) : -1;
    const closer = plainAt >= 0 ? { index: index + plainAt, marker: closerMarker } : this.closerBefore(position, closerMarker, end);
    const segmentEnd = closer ? closer.index + closer.marker.length : end;
    return this.markup(index, segmentEnd, closer !== undefined, parse(this.text.slice(index, closer ? closer.index : end)));
  }

  /** `<|im_start|>assistant` opening the text (within 64 spaces) is a stray header; later, the model runs into a new turn. */
  private probeImStart(index: number, after: number): Probe {
    if (/\S/.test(this.text.slice(Math.max(0, index - 64), index)) || index > 64) return this.markup(index, this.textEnd, true);
    const lineEnd = this.text.indexOf('\n', after);
    if (lineEnd < 0) return this.final ? this.markup(index, this.textEnd, true) : undecided;
    return this.markup(index, lineEnd + 1, true);
  }

  /** An orphaned closer is markup after JSON/tag text or before another closer, not inside a sentence. */
  private isOrphanedCloser(index: number, after: number): boolean {
    const before = this.text.slice(Math.max(0, index - 200), index).trimEnd();
    if (before === '' || /[}\]>"]$/.test(before)) return true;
    return /^\s{0,8}<\/(?:tool_call|function|parameter|invoke|function_calls|arg_value)>/.test(this.text.slice(after, after + 40));
  }

  private probeBareJson(index: number, position: number): Probe {
    if (this.bareJsonProbes >= maxBareJsonProbes) return none;
    this.bareJsonProbes++;
    const end = Math.min(this.regionEnd(position), index + bareJsonLimit);
    const jsonEnd = jsonValueEnd(this.text, index, end);
    if (jsonEnd < 0) {
      if (end !== this.textEnd) return none; // longer than any call, or cut by another opener
      if (!this.final) return undecided;
      // The final text ends inside it: a call cut short once it names its arguments.
      return /"(?:arguments|parameters)"\s{0,8}:/.test(this.text.slice(index, end)) ? this.markup(index, end, false) : none;
    }
    const json = this.text.slice(index, jsonEnd);
    if (!isCallShapedObject(parseObject(json))) return none;
    return this.markup(index, jsonEnd, true, callsFromJson(json));
  }
}

function skipSpaces(text: string, from: number, to: number): number {
  let index = from;
  while (index < to && /\s/.test(text[index] ?? '')) index++;
  return index;
}

function parseObject(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Markup segments of `text` from `from` on. `final: false` while streaming: a marker that needs more text to
 * be classified stops the scan and is reported as `undecidedAt`. `code` defaults to the text's own code ranges.
 */
export function scanMarkup(text: string, options: { from?: number; final?: boolean; code?: readonly [number, number][] } = {}): MarkupScan {
  return new Scanner(text, options.from ?? 0, options.final ?? true).scan(options.code ?? codeRanges(text));
}
