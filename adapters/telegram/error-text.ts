import { TelegramError } from 'telegraf';
import { TelegramDeliveryError } from './delivery-failure.js';

// A Telegram failure as log text that cannot hold the token: node-fetch's FetchError message includes the request
// URL, and every Bot API URL has `/bot<token>/` in it. Only the Bot API's own answer and error kinds are kept.

export function telegramErrorText(error: unknown): string {
  if (error instanceof TelegramError) return `${error.code} ${error.description}`;
  if (error instanceof TelegramDeliveryError) return error.message;
  if (error instanceof Error && (error.name === 'FetchError' || error.name === 'AbortError')) return `connection failed (${error.name})`;
  return error instanceof Error ? error.name : 'unknown error';
}
