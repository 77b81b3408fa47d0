import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/storage/storage.js';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true })));

describe('storage', () => {
  it('persists values in DATA_DIR/state.db across reopening', async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-storage-'));
    folders.push(folder);
    const first = openStorage(folder);
    await first.cache.set('telegram:99', 1, 60_000);
    await first.history.set('console:local', [{ question: 'ถาม', answer: 'ตอบ' }]);
    first.close();
    const second = openStorage(folder);
    expect(await second.cache.get('telegram:99')).toBe(1);
    expect(await second.history.get('console:local')).toEqual([{ question: 'ถาม', answer: 'ตอบ' }]);
    second.close();
  });

  it('keeps namespaces apart and clears only its own', async () => {
    const storage = openStorage(':memory:');
    await storage.history.set('k', 'history');
    await storage.cache.set('k', 'cache');
    expect(await storage.history.get('k')).toBe('history');
    await storage.cache.clear();
    expect(await storage.cache.get('k')).toBeUndefined();
    expect(await storage.history.get('k')).toBe('history');
    storage.close();
  });

  it('expires entries after their TTL', async () => {
    const storage = openStorage(':memory:');
    await storage.cache.set('gone', 1, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await storage.cache.get('gone')).toBeUndefined();
    storage.close();
  });
});
