// Deep research: the runner behind the `deep_research` tool and the `/research` command.
export { createDeepResearchTool } from './deep-research-tool.js';
export { createResearchRunner } from './research-loop.js';
export type { Fact, ResearchContext, ResearchResult, ResearchRunner, ResearchStopReason } from './types.js';
