import type { PlatformRenderer } from '../format/renderer.js';
import { keepText } from '../format/renderer.js';
import { renderDiscordMarkdown } from './render-markdown.js';
import { readDiscordMarkdown } from './render-marks.js';

// Discord's renderer: its Markdown dialect (render-markdown.ts), its fences and markers reopened across a split
// (render-marks.ts).

export const discordRenderer: PlatformRenderer = { render: renderDiscordMarkdown, read: readDiscordMarkdown, serialize: keepText };
