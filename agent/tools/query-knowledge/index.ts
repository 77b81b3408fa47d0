import { logFailure } from '../../../src/shared/log.js';
import { z } from 'zod';
import { citationsFor, passageSourceMarker } from '../../../src/shared/citations.js';
import { say } from '../../../src/shared/i18n.js';
import type { Language } from '../../../src/shared/types.js';
import { type AnyTool, defineTool, type ToolContext, type ToolResult } from '../tool.js';
import type { KnowledgeBaseEntry, KnowledgePassage, KnowledgeReader } from './knowledge-reader.js';
import { queryKnowledgeStrings as strings } from './strings.js';

export { knowledgePolicy } from './policy.js';
export type { KnowledgeBaseEntry, KnowledgePassage, KnowledgeReader } from './knowledge-reader.js';

// `query_knowledge`: the agent's own retrieval over the knowledge bases bound to this conversation.
// Which KBs may be read comes from the turn (context.boundKnowledgeBaseIds), never from the arguments:
// a requested KB that is not bound is refused here, before any search runs.

const input = z.object({
  action: z.enum(['list', 'query']).describe('"list": the knowledge bases of this chat; "query": search them'),
  kb_id: z.string().trim().min(1).max(64).optional().describe('One knowledge base to search (kb_id from "list")'),
  kb_ids: z.array(z.string().trim().min(1).max(64)).min(1).max(20).optional().describe('Several knowledge bases to search together'),
  query_text: z.string().trim().min(1).max(1000).optional().describe('What to look for, in the language of the documents'),
  top_k: z.coerce.number().int().min(1).max(20).optional().describe('How many passages to return in all (default 5)'),
});
type Input = z.infer<typeof input>;

export const defaultTopK = 5;

async function bound(store: KnowledgeReader, context: ToolContext): Promise<KnowledgeBaseEntry[]> {
  const found = await Promise.all(context.boundKnowledgeBaseIds.map((id) => store.getKnowledgeBase(id)));
  return found.filter((knowledgeBase): knowledgeBase is KnowledgeBaseEntry => knowledgeBase !== undefined);
}

async function list(store: KnowledgeReader, context: ToolContext): Promise<ToolResult> {
  const { language } = context;
  const available = await bound(store, context);
  if (available.length === 0) return { ok: true, content: say(strings.noneBound, language) };
  const summaries = await Promise.all(available.map((knowledgeBase) => store.summarize(knowledgeBase.id)));
  const lines = available.map((knowledgeBase, index) =>
    say(strings.listLine, language, {
      id: knowledgeBase.id,
      name: knowledgeBase.name,
      documents: summaries[index]?.documentCount ?? 0,
      description: knowledgeBase.description ? say(strings.descriptionPart, language, { description: knowledgeBase.description }) : '',
    }),
  );
  return { ok: true, content: [say(strings.listHeading, language), ...lines].join('\n') };
}

/** A requested id may also be a bound KB's name (small models often pass the name); anything else is refused. */
function resolveRequested(requested: readonly string[], available: readonly KnowledgeBaseEntry[]): { allowed: KnowledgeBaseEntry[]; refused: string[] } {
  const allowed: KnowledgeBaseEntry[] = [];
  const refused: string[] = [];
  for (const reference of requested) {
    const match =
      available.find((knowledgeBase) => knowledgeBase.id === reference) ??
      available.find((knowledgeBase) => knowledgeBase.name.toLowerCase() === reference.toLowerCase());
    if (!match) refused.push(reference);
    else if (!allowed.includes(match)) allowed.push(match);
  }
  return { allowed, refused };
}

function passages(hits: readonly KnowledgePassage[], language: Language): string {
  return hits.map((hit, index) => `[${index + 1}] ${hit.text}\n${passageSourceMarker(hit, language)}`).join('\n\n');
}

async function query(store: KnowledgeReader, parameters: Input, context: ToolContext): Promise<ToolResult> {
  const { language, log, conversationKey } = context;
  const available = await bound(store, context);
  if (available.length === 0) return { ok: false, content: say(strings.noneBound, language) };
  const queryText = parameters.query_text;
  if (!queryText) return { ok: false, content: say(strings.missingQuery, language) };
  const requested = [...(parameters.kb_id ? [parameters.kb_id] : []), ...(parameters.kb_ids ?? [])];
  const { allowed, refused } = requested.length > 0 ? resolveRequested(requested, available) : { allowed: available, refused: [] };
  if (refused.length > 0) {
    // The ids come from the model's arguments (any text): counted, not logged.
    log.info({ conversationKey, refused: refused.length }, 'query_knowledge: refused knowledge bases not bound to this conversation');
    const availableText = available.map((knowledgeBase) => `${knowledgeBase.id} (${knowledgeBase.name})`).join(', ');
    return { ok: false, content: say(strings.notBound, language, { ids: refused.join(', '), available: availableText }) };
  }
  const topK = parameters.top_k ?? defaultTopK;
  log.info(
    // No message text at info level (README): the query's length, never its words.
    { conversationKey, knowledgeBaseIds: allowed.map((knowledgeBase) => knowledgeBase.id), topK, queryLength: queryText.length },
    'query_knowledge: retrieval requested',
  );
  const settled = await Promise.allSettled(allowed.map((knowledgeBase) => store.search([knowledgeBase.id], queryText, topK)));
  const merged: KnowledgePassage[] = [];
  const failed: { kb_id: string; kb_name: string; error: string }[] = [];
  settled.forEach((outcome, index) => {
    const knowledgeBase = allowed[index];
    if (!knowledgeBase) return;
    if (outcome.status === 'fulfilled') {
      log.info({ conversationKey, knowledgeBaseId: knowledgeBase.id, count: outcome.value.length }, 'query_knowledge: knowledge base searched');
      merged.push(...outcome.value);
    } else {
      const error = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      logFailure(log, 'warn', { conversationKey, knowledgeBaseId: knowledgeBase.id }, 'query_knowledge: knowledge base failed', outcome.reason);
      failed.push({ kb_id: knowledgeBase.id, kb_name: knowledgeBase.name, error: error.slice(0, 200) });
    }
  });
  const results = merged.sort((left, right) => right.score - left.score).slice(0, topK);
  log.info({ conversationKey, merged: merged.length, failed: failed.length, returned: results.length }, 'query_knowledge: done');

  if (failed.length === allowed.length)
    return { ok: false, content: say(strings.allFailed, language, { ids: failed.map((failure) => failure.kb_id).join(', ') }) };
  const citations = citationsFor(results, language);
  if (failed.length > 0) {
    // Partial failure: the agent carries on with what it has and knows what is missing.
    const body = {
      results: results.map((hit) => ({
        kb_id: hit.knowledgeBaseId,
        kb_name: hit.knowledgeBaseName,
        document: hit.documentTitle,
        ...(hit.page === undefined ? {} : { page: hit.page }),
        text: `${hit.text}\n${passageSourceMarker(hit, language)}`,
      })),
      failed_kbs: failed,
    };
    return { ok: true, content: JSON.stringify(body, null, 1), citations };
  }
  const shownQuery = queryText.slice(0, 200);
  if (results.length === 0) return { ok: true, content: say(strings.nothingFound, language, { query: shownQuery }), citations: [] };
  return {
    ok: true,
    content: `${say(strings.resultsHeading, language, { query: shownQuery, count: results.length })}\n\n${passages(results, language)}`,
    citations,
  };
}

export function createQueryKnowledgeTool(store: KnowledgeReader): AnyTool {
  return defineTool({
    name: 'query_knowledge',
    description:
      "Search the knowledge bases bound to this chat (the organisation's own documents). " +
      'action "list" shows them (kb_id, name, description, documents); action "query" with query_text searches them ' +
      '(all of them unless kb_id or kb_ids is given) and returns passages, each followed by its [source: …].',
    input,
    async execute(parameters, context) {
      context.log.info(
        { conversationKey: context.conversationKey, action: parameters.action, parameterKeys: Object.keys(parameters).sort() },
        'query_knowledge: call started',
      );
      try {
        return parameters.action === 'list' ? await list(store, context) : await query(store, parameters, context);
      } catch (error) {
        logFailure(context.log, 'warn', { conversationKey: context.conversationKey }, 'query_knowledge: failed', error);
        return { ok: false, content: say(strings.allFailed, context.language, { ids: '-' }) };
      }
    },
  });
}
