import type { PlatformRenderer } from '../format/renderer.js';
import { escapeHtml, renderTelegramHtml } from './render-html.js';
import { readTelegramHtml } from './render-marks.js';

// Telegram's renderer: its HTML parse mode (render-html.ts), read back by entity for the splitter (render-marks.ts).

export const telegramRenderer: PlatformRenderer = { render: renderTelegramHtml, read: readTelegramHtml, serialize: escapeHtml };
