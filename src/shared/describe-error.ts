/** The message of anything thrown, for logs and user notices (never the stack). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What may be logged of a failure at info level and above: its class, and the `kind`/`code`/`status` it carries —
 * never its message, which may quote a question, a prompt echoed by a server, a file name or a query.
 */
export function errorSummary(error: unknown): { error: string; kind?: string; status?: number } {
  const name = error instanceof Error ? error.name : typeof error;
  const fields = typeof error === 'object' && error !== null ? (error as { kind?: unknown; code?: unknown; status?: unknown }) : {};
  const kind = typeof fields.kind === 'string' ? fields.kind : typeof fields.code === 'string' ? fields.code : undefined;
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  return { error: name, ...(kind ? { kind } : {}), ...(status ? { status } : {}) };
}
