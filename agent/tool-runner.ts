import { say, type Localized } from '../src/shared/i18n.js';
import type { GuardEvent, ToolCallRecord } from '../src/shared/types.js';
import { checkRepeatCall, repeatWarning } from './guards/repeat-call.js';
import { parseToolArguments, type AssembledToolCall } from './model/index.js';
import type { AnyTool, ToolContext } from './tools/tool.js';
import { describeError } from '../src/shared/describe-error.js';

const unknownTool: Localized = {
  th: 'ไม่มีเครื่องมือชื่อ "{name}" เครื่องมือที่ใช้ได้: {names}',
  en: 'There is no tool named "{name}". Available tools: {names}',
};
const badArguments: Localized = {
  th: 'อาร์กิวเมนต์ของ {name} ไม่ถูกต้อง: {problem} กรุณาแก้แล้วเรียกใหม่ หรือตอบจากข้อมูลที่มี',
  en: 'Invalid arguments for {name}: {problem}. Fix them and call again, or answer from what you have.',
};
const toolFailed: Localized = {
  th: 'เครื่องมือ {name} ทำงานไม่สำเร็จ: {problem}',
  en: 'The tool {name} failed: {problem}',
};

export interface ToolRunOutcome {
  record: ToolCallRecord;
  /** 'blocked' tells the loop to stop calling tools and give its final answer. */
  verdict: 'ran' | 'repeated' | 'blocked' | 'rejected';
  event?: GuardEvent;
}

/** Runs one model tool call: repeat-call guard, argument validation, execution. Never throws. */
export async function runToolCall(
  call: AssembledToolCall,
  tools: ReadonlyMap<string, AnyTool>,
  previous: readonly ToolCallRecord[],
  context: ToolContext,
): Promise<ToolRunOutcome> {
  const started = performance.now();
  const language = context.language;
  const finish = (result: string, ok: boolean, args: unknown, extra: Partial<ToolCallRecord> = {}): ToolCallRecord => ({
    id: call.id,
    name: call.name,
    args,
    argumentsText: call.argumentsText,
    result,
    ok,
    ms: Math.round(performance.now() - started),
    citations: [],
    files: [],
    ...extra,
  });

  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys()].join(', ') || '-';
    return { record: finish(say(unknownTool, language, { name: call.name, names }), false, undefined), verdict: 'rejected' };
  }
  const parsed = parseToolArguments(call.argumentsText);
  const validated = parsed.ok ? tool.input.safeParse(parsed.value) : undefined;
  if (!parsed.ok || !validated?.success) {
    const problem = parsed.ok ? summarizeIssues(validated?.error) : parsed.error;
    return {
      record: finish(say(badArguments, language, { name: call.name, problem }), false, parsed.ok ? parsed.value : undefined),
      verdict: 'rejected',
    };
  }

  const repeat = checkRepeatCall(previous, call.name, validated.data);
  if (repeat.action === 'block') {
    return { record: finish(repeat.event.reason, false, validated.data), verdict: 'blocked', event: repeat.event };
  }
  if (repeat.action === 'warn') {
    const earlier = repeat.earlier;
    const result = `${repeatWarning(language)}\n\n${earlier.result}`;
    return {
      record: finish(result, earlier.ok, validated.data, { citations: earlier.citations, files: [] }),
      verdict: 'repeated',
      event: repeat.event,
    };
  }

  try {
    const output = await tool.execute(validated.data, context);
    return {
      record: finish(output.content, output.ok, validated.data, { citations: output.citations ?? [], files: output.files ?? [] }),
      verdict: 'ran',
    };
  } catch (error) {
    context.log.warn({ tool: call.name, error: describeError(error) }, 'tool threw');
    const problem = describeError(error);
    return { record: finish(say(toolFailed, language, { name: call.name, problem: problem.slice(0, 300) }), false, validated.data), verdict: 'ran' };
  }
}

function summarizeIssues(error: { issues: { path: PropertyKey[]; message: string }[] } | undefined): string {
  if (!error) return '?';
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`)
    .join('; ');
}
