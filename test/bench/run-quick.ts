import { vi } from 'vitest';

// Runs a bench's `main(['--quick'])` in the test process and returns the one JSON document it printed on stdout
// (what `npm run bench -- <name> --quick` shows). Tests assert its shape, never a timing.

export async function runQuick(main: (argv: string[]) => Promise<void>): Promise<unknown> {
  let written = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written += chunk.toString();
    return true;
  });
  try {
    await main(['--quick']);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(written) as unknown;
}
