/** The message of anything thrown, for logs and user notices (never the stack). */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
