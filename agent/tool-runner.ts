import { say, type Localized } from '../src/shared/i18n.js';
import type { GuardEvent, Language, ToolCallRecord } from '../src/shared/types.js';
import { checkRepeatCall, failedRepeatWarning, repeatWarning } from './guards/repeat-call.js';
import { parseToolArguments, type AssembledToolCall } from './model/index.js';
import type { AnyTool, ToolContext } from './tools/tool.js';
import { describeError } from '../src/shared/describe-error.js';
import { logFailure } from '../src/shared/log.js';

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

/** Runs one model tool call: argument validation, repeat-call guard, execution. Never throws. */
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

  // Checked before the repeat guard, so that a rejected call is counted like any other and its reason kept.
  const checked = checkArguments(call, tools, language);
  const repeat = checkRepeatCall(previous, call.name, checked.args, call.argumentsText);
  if (repeat.action === 'block') {
    return { record: finish(repeat.event.reason, false, checked.args), verdict: 'blocked', event: repeat.event };
  }
  if (repeat.action === 'warn') {
    const earlier = repeat.earlier;
    const result = earlier.ok ? `${repeatWarning(language)}\n\n${earlier.result}` : failedRepeatWarning(earlier, language);
    return {
      record: finish(result, earlier.ok, checked.args, { citations: earlier.citations, files: [] }),
      verdict: 'repeated',
      event: repeat.event,
    };
  }
  if (!checked.ok) return { record: finish(checked.problem, false, checked.args), verdict: 'rejected' };
  const { tool } = checked;

  try {
    const output = await tool.execute(checked.args, context);
    return {
      record: finish(output.content, output.ok, checked.args, { citations: output.citations ?? [], files: output.files ?? [] }),
      verdict: 'ran',
    };
  } catch (error) {
    // The message may quote the arguments (model text): its class at warn, the detail only at debug.
    logFailure(context.log, 'warn', { tool: call.name }, 'tool threw', error);
    const problem = describeError(error);
    return { record: finish(say(toolFailed, language, { name: call.name, problem: problem.slice(0, 300) }), false, checked.args), verdict: 'ran' };
  }
}

type CheckedCall = { ok: true; tool: AnyTool; args: unknown } | { ok: false; problem: string; args: unknown };

/** The tool and its validated arguments, or what is wrong (unknown tool, arguments not JSON or not valid). */
function checkArguments(call: AssembledToolCall, tools: ReadonlyMap<string, AnyTool>, language: Language): CheckedCall {
  const parsed = parseToolArguments(call.argumentsText);
  const parsedArgs = parsed.ok ? parsed.value : undefined;
  const tool = tools.get(call.name);
  if (!tool) {
    const names = [...tools.keys()].join(', ') || '-';
    return { ok: false, problem: say(unknownTool, language, { name: call.name, names }), args: parsedArgs };
  }
  const validated = parsed.ok ? tool.input.safeParse(parsed.value) : undefined;
  if (!parsed.ok || !validated?.success) {
    const problem = parsed.ok ? summarizeIssues(validated?.error) : parsed.error;
    return { ok: false, problem: say(badArguments, language, { name: call.name, problem }), args: parsedArgs };
  }
  return { ok: true, tool, args: validated.data };
}

function summarizeIssues(error: { issues: { path: PropertyKey[]; message: string }[] } | undefined): string {
  if (!error) return '?';
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`)
    .join('; ');
}
