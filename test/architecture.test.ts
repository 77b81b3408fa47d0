import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importEdges, projectRoot, sourceFiles, type ImportEdge } from './support/import-graph.js';
import { isSourceFolder, layoutViolation, testFiles } from './support/test-layout.js';

// The rooms of docs/architecture.md ("Rooms and imports"), enforced: src/shared/ is the floor and imports nothing
// above it; adapters/ stand on the floor only; agent/ stands on the floor plus the services it is handed; the
// files at the src/ root (composition root, CLI, HTTP, start-up) are imported only inside src/ and by tests;
// src/pipeline/ (one message's route) knows the agent and the adapters only through the floor's contracts and
// stands on src/queue/, the durable store, which never reaches back up into it.

/** Services outside src/shared/ that agent/ may import: the credential scanner its last guard and write_file use. */
const servicesHandedToTheAgent = ['src/dlp/'];
const maxLinesPerFile = 400;

type Room = 'shared' | 'adapters' | 'agent' | 'src-root' | 'services' | 'outside';

function roomOf(file: string): Room {
  if (file.startsWith('src/shared/')) return 'shared';
  if (file.startsWith('adapters/')) return 'adapters';
  if (file.startsWith('agent/')) return 'agent';
  if (file.startsWith('src/')) return file.split('/').length === 2 ? 'src-root' : 'services';
  return 'outside';
}

/** Why an import breaks the room rules, or undefined when it keeps them. */
function roomViolation(edge: ImportEdge): string | undefined {
  const from = roomOf(edge.from);
  const to = roomOf(edge.to);
  if (from === 'shared' && to !== 'shared') return 'src/shared/ imports nothing above it';
  if (from === 'adapters' && to !== 'shared' && to !== 'adapters') return 'adapters/ import only src/shared/';
  if (from === 'agent' && to !== 'shared' && to !== 'agent' && !servicesHandedToTheAgent.some((prefix) => edge.to.startsWith(prefix))) {
    return `agent/ imports only src/shared/ and ${servicesHandedToTheAgent.join(', ')}`;
  }
  if (to === 'src-root' && (from === 'agent' || from === 'adapters' || from === 'shared')) return 'the src/ root is imported only inside src/';
  if (from === 'services' && to === 'src-root') return 'services never import the src/ root: it wires them';
  if (from === 'services' && (to === 'agent' || to === 'adapters')) return 'services never import agent/ or adapters/: the src/ root wires them';
  return pipelineViolation(edge);
}

/** The route of one message and its store: the pipeline uses the queue contract; the queue never uses the pipeline. */
function pipelineViolation(edge: ImportEdge): string | undefined {
  if (edge.from.startsWith('src/queue/') && edge.to.startsWith('src/pipeline/')) return 'src/queue/ never imports src/pipeline/: the store knows no route';
  if (edge.from.startsWith('src/queue/') && !edge.to.startsWith('src/queue/') && !edge.to.startsWith('src/shared/') && !edge.to.startsWith('src/redis/')) {
    return 'src/queue/ stands on src/shared/ and src/redis/ only';
  }
  return undefined;
}

/** The model client's one face: outside agent/model/, only its index.ts is imported (its own tests excepted). */
function modelFaceViolation(edge: ImportEdge): string | undefined {
  const inside = (file: string) => file.startsWith('agent/model/');
  if (inside(edge.from) && edge.to.startsWith('agent/') && !inside(edge.to)) return 'agent/model/ imports nothing else of agent/';
  if (!inside(edge.to) || inside(edge.from) || edge.to === 'agent/model/index.ts' || edge.from.startsWith('test/agent/model/')) return undefined;
  return 'import agent/model/ through its index.ts';
}

/** Knowledge backends sit side by side: ranking/ and ingest/ never reach into a backend folder. */
function knowledgeViolation(edge: ImportEdge): string | undefined {
  const backend = /^src\/knowledge\/(sqlite|postgres)\//;
  const from = /^src\/knowledge\/(ranking|ingest|sqlite|postgres)\//.exec(edge.from)?.[1];
  const to = backend.exec(edge.to)?.[1];
  if (from && to && from !== to) return `src/knowledge/${from}/ must not import src/knowledge/${to}/`;
  return undefined;
}

/**
 * One adapter, one folder: adapters/<platform>/ imports only itself, the neutral adapters/format/ and
 * adapters/common/, and src/shared/ (another adapter's renderer or delivery is never borrowed). format/ and common/
 * are neutral: they import neither an adapter nor each other's platform code.
 */
function adapterViolation(edge: ImportEdge): string | undefined {
  const folder = /^adapters\/([^/]+)\//.exec(edge.from)?.[1];
  if (folder === undefined || edge.to.startsWith('src/shared/')) return undefined;
  const neutral = ['format', 'common'];
  const target = /^adapters\/([^/]+)\//.exec(edge.to)?.[1];
  if (target === undefined) return undefined;
  if (neutral.includes(folder)) return neutral.includes(target) ? undefined : `adapters/${folder}/ is platform-neutral: it imports no adapter`;
  if (target === folder || neutral.includes(target)) return undefined;
  return `adapters/${folder}/ imports only itself, adapters/format/, adapters/common/ and src/shared/`;
}

function violations(edges: readonly ImportEdge[], rule: (edge: ImportEdge) => string | undefined): string[] {
  return edges.flatMap((edge) => {
    const reason = rule(edge);
    return reason ? [`${edge.from} → ${edge.specifier}: ${reason}`] : [];
  });
}

const productEdges = importEdges(['src', 'agent', 'adapters']);
const allEdges = [...productEdges, ...importEdges(['test', 'bench'])];

describe('architecture', () => {
  it('sees the tree (a checker that reads nothing can never fail)', () => {
    expect(sourceFiles('adapters').length).toBeGreaterThan(0);
    expect(sourceFiles('agent').length).toBeGreaterThan(0);
    expect(sourceFiles('src/shared').length).toBeGreaterThan(0);
    expect(productEdges.length).toBeGreaterThan(100);
  });

  it('keeps the rooms: no import runs upward', () => {
    expect(violations(productEdges, roomViolation)).toEqual([]);
  });

  it('adapters/ and agent/ never import each other', () => {
    const crossing = productEdges.filter(
      (edge) => (edge.from.startsWith('adapters/') && edge.to.startsWith('agent/')) || (edge.from.startsWith('agent/') && edge.to.startsWith('adapters/')),
    );
    expect(crossing).toEqual([]);
  });

  it('keeps each adapter to itself, format/, common/ and src/shared/', () => {
    expect(violations(productEdges, adapterViolation)).toEqual([]);
  });

  it('reaches the model client only through agent/model/index.ts', () => {
    expect(violations(allEdges, modelFaceViolation)).toEqual([]);
  });

  it('keeps knowledge ranking and ingestion free of any one backend', () => {
    expect(violations(productEdges, knowledgeViolation)).toEqual([]);
  });

  it('keeps every source file under 400 lines', () => {
    const files = ['src', 'agent', 'adapters', 'test', 'bench'].flatMap(sourceFiles);
    const long = files.filter((file) => readFileSync(path.join(projectRoot, file), 'utf8').split('\n').length > maxLinesPerFile);
    expect(long).toEqual([]);
  });

  it('keeps the tests in a mirror of the tree (or in a folder named in test/support/test-layout.ts)', () => {
    expect(testFiles().length).toBeGreaterThan(100);
    expect(testFiles().flatMap((file) => layoutViolation(file, isSourceFolder) ?? [])).toEqual([]);
  });

  it('the rules see a violation of each kind', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, specifier: to });
    expect(roomViolation(edge('src/shared/types.ts', 'src/app.ts'))).toBeDefined();
    expect(roomViolation(edge('adapters/console/chat.ts', 'src/app.ts'))).toBeDefined();
    expect(roomViolation(edge('src/pipeline/router.ts', 'agent/agent.ts'))).toBeDefined();
    expect(roomViolation(edge('src/pipeline/router.ts', 'src/app.ts'))).toBeDefined();
    expect(roomViolation(edge('src/queue/sqlite-inbound-queue.ts', 'src/pipeline/message-replies.ts'))).toBeDefined();
    expect(roomViolation(edge('src/queue/sqlite-inbound-queue.ts', 'src/knowledge/index.ts'))).toBeDefined();
    expect(roomViolation(edge('src/pipeline/message-replies.ts', 'src/queue/inbound-queue.ts'))).toBeUndefined();
    expect(roomViolation(edge('adapters/console/chat.ts', 'agent/turn.ts'))).toBeDefined();
    expect(roomViolation(edge('agent/turn.ts', 'src/knowledge/index.ts'))).toBeDefined();
    expect(roomViolation(edge('agent/turn.ts', 'src/config.ts'))).toBeDefined();
    expect(roomViolation(edge('src/knowledge/index.ts', 'src/app.ts'))).toBeDefined();
    expect(roomViolation(edge('src/commands/research.ts', 'agent/guards/sources.ts'))).toBeDefined();
    expect(roomViolation(edge('agent/guards/index.ts', 'src/dlp/scan.ts'))).toBeUndefined();
    expect(roomViolation(edge('src/app.ts', 'agent/turn.ts'))).toBeUndefined();
    expect(adapterViolation(edge('adapters/line/responder.ts', 'adapters/telegram/render.ts'))).toBeDefined();
    expect(adapterViolation(edge('adapters/format/index.ts', 'adapters/telegram/render.ts'))).toBeDefined();
    expect(adapterViolation(edge('adapters/line/responder.ts', 'adapters/common/reply-plan.ts'))).toBeUndefined();
    expect(adapterViolation(edge('adapters/line/render.ts', 'adapters/format/renderer.ts'))).toBeUndefined();
    expect(modelFaceViolation(edge('agent/turn.ts', 'agent/model/client.ts'))).toBeDefined();
    expect(modelFaceViolation(edge('agent/model/types.ts', 'agent/tools/tool.ts'))).toBeDefined();
    expect(modelFaceViolation(edge('agent/turn.ts', 'agent/model/index.ts'))).toBeUndefined();
    expect(knowledgeViolation(edge('src/knowledge/ranking/tokenize.ts', 'src/knowledge/sqlite/schema.ts'))).toBeDefined();
    expect(layoutViolation('test/ocr/ocr-cache.test.ts', isSourceFolder)).toBeDefined();
    expect(layoutViolation('test/src/no-such-folder/x.test.ts', isSourceFolder)).toBeDefined();
    expect(layoutViolation('test/src/ocr/ocr-cache.test.ts', isSourceFolder)).toBeUndefined();
    expect(layoutViolation('test/e2e/telegram/x.test.ts', isSourceFolder)).toBeUndefined();
  });
});
