// The agent's Markdown as a small typed tree: what every platform renderer reads. Built once per answer by
// markdown.ts from marked's lexer tokens, so the renderers never see marked's loosely typed tokens.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong' | 'emphasis' | 'strike'; children: Inline[] }
  | { kind: 'code'; text: string }
  | { kind: 'link'; href: string; children: Inline[] }
  | { kind: 'break' };

export interface ListItem {
  /** `undefined` for a plain item; true or false for a task item (`- [x]`). */
  checked: boolean | undefined;
  blocks: Block[];
}

export type Alignment = 'left' | 'right' | 'center' | null;

export type Block =
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'heading'; depth: number; content: Inline[] }
  | { kind: 'code'; language: string; text: string }
  | { kind: 'list'; ordered: boolean; start: number; items: ListItem[] }
  | { kind: 'quote'; blocks: Block[] }
  | { kind: 'table'; header: Inline[][]; rows: Inline[][][]; align: Alignment[] }
  | { kind: 'rule' };
