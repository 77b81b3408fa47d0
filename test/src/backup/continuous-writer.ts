import { silentLogger } from '../../../src/shared/log.js';
import { openKnowledgeStore } from '../../../src/knowledge/index.js';

// A second process writing to knowledge.db without pause, through the real store, until it is killed: the bot
// at its busiest while a backup runs. Prints "ready" once it has committed its first knowledge bases.

const file = process.argv[2];
if (!file) throw new Error('usage: continuous-writer.ts <knowledge.db>');
const store = openKnowledgeStore({ path: file, log: silentLogger() });
for (let index = 0; ; index++) {
  const created = await store.createKnowledgeBase({
    name: `load-${index}`,
    description: '',
    spaceKey: 'telegram:-100',
    createdBy: 'telegram:42',
    now: new Date(),
  });
  if (!created.ok) throw new Error(created.reason);
  if (index === 50) process.stdout.write('ready\n');
}
