import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildDateLine, buildSystemPrompt, buildToolDefinitions, buildUserContent } from '../../agent/prompt.js';
import { defineTool } from '../../agent/tools/tool.js';

describe('date line', () => {
  const date = new Date('2026-11-29T11:20:00Z');
  it('gives the Thai date with both the Buddhist-Era and CE years in Bangkok time', () => {
    const line = buildDateLine(date, 'Asia/Bangkok', 'th');
    expect(line).toContain('29 พฤศจิกายน');
    expect(line).toContain('พ.ศ. 2569');
    expect(line).toContain('ค.ศ. 2026');
    expect(line).toContain('18:20 น.');
  });
  it('gives the English form too', () => {
    const line = buildDateLine(date, 'Asia/Bangkok', 'en');
    expect(line).toContain('Sunday 29 November 2026');
    expect(line).toContain('B.E. 2569');
  });
  it('crosses the new year in the bot time zone, not UTC', () => {
    expect(buildDateLine(new Date('2026-12-31T18:30:00Z'), 'Asia/Bangkok', 'th')).toContain('พ.ศ. 2570 (ค.ศ. 2027)');
  });
});

describe('prompt parts', () => {
  it('puts the speaker only when given', () => {
    expect(buildUserContent({ dateLine: '[d]', question: 'q', language: 'th' })).toBe('[d]\nq');
    expect(buildUserContent({ dateLine: '[d]', speakerName: 'Somchai', question: 'q', language: 'th' })).toBe('[d]\nผู้ถาม: Somchai\nq');
  });

  it('keeps dates, names and passages out of the system prompt', () => {
    const prompt = buildSystemPrompt({ botName: 'Saeng', language: 'th', capabilities: { tools: true, vision: false }, toolPolicies: ['policy'] });
    expect(prompt).not.toMatch(/\d{4}/);
    expect(prompt).toContain('policy');
    const noTools = buildSystemPrompt({ botName: 'Saeng', language: 'th', capabilities: { tools: false, vision: false }, toolPolicies: ['policy'] });
    expect(noTools).not.toContain('policy');
  });

  it('serializes tool schemas without $schema, in registration order', () => {
    const tools = [
      defineTool({ name: 'b_tool', description: 'B', input: z.object({ q: z.string() }), execute: async () => ({ ok: true, content: '' }) }),
      defineTool({ name: 'a_tool', description: 'A', input: z.object({ n: z.number().optional() }), execute: async () => ({ ok: true, content: '' }) }),
    ];
    const definitions = buildToolDefinitions(tools);
    expect(definitions.map((definition) => definition.type === 'function' && definition.function.name)).toEqual(['b_tool', 'a_tool']);
    expect(JSON.stringify(definitions)).not.toContain('$schema');
    expect(JSON.stringify(buildToolDefinitions(tools))).toBe(JSON.stringify(definitions));
  });
});
