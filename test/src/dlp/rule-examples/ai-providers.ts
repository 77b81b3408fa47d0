import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, base62, type KindExamples } from './examples.js';

const marker = 'T3BlbkFJ';
const url64 = (length: number, seed: number) => randomText(length, seed, alphabets.base64url);

export const aiProviderExamples: KindExamples[] = [
  {
    kind: 'openai-key',
    positives: [
      { name: 'legacy user key', make: (seed) => `OPENAI_API_KEY=sk-${base62(20, seed)}${marker}${base62(20, seed + 1)}` },
      { name: 'project key', make: (seed) => `sk-proj-${url64(74, seed + 2)}${marker}${url64(74, seed + 3)}` },
      { name: 'service-account key', make: (seed) => `sk-svcacct-${url64(58, seed + 4)}${marker}${url64(58, seed + 5)}` },
      { name: 'admin key', make: (seed) => `sk-admin-${url64(58, seed + 6)}${marker}${url64(58, seed + 7)}` },
      { name: 'compatible provider key, 48 base62', make: (seed) => `Moonshot key: sk-${base62(48, seed + 8)}` },
      { name: 'compatible provider key, 32 hex', make: (seed) => `DEEPSEEK_API_KEY=sk-${randomText(32, seed + 9, alphabets.hex)}` },
      { name: 'OpenRouter key', make: (seed) => `sk-or-v1-${randomText(64, seed + 10, alphabets.hex)}` },
      { name: 'key in a URL query', make: (seed) => `https://gateway.example.com/v1/chat?api_key=sk-${base62(48, seed + 11)}&model=x` },
    ],
    negatives: [
      { name: 'SK hynix news URL', text: 'อ่านข่าวที่ https://www.skhynix.com/sk-hynix-news/2026 ได้เลย' },
      { name: 'SK-II product URL', text: 'ซื้อได้ที่ https://shopee.co.th/sk-ii-facial-treatment-essence-230ml ราคาดี' },
      { name: 'sk- in prose', text: 'task-1234 is done; the sk- prefix marks OpenAI keys; we use sk-learn and risk-free plans' },
      { name: 'long hyphenated slug', text: 'see sk-this-is-a-very-long-project-name-for-the-docs-site' },
      { name: 'project slug', text: 'the repo sk-proj-customer-support-bot-for-line-2026 is public' },
      { name: 'all-x placeholder', text: 'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'sequential fixture', text: 'OPENAI_API_KEY=sk-1234567890abcdef1234567890abcdef1234' },
      { name: 'lower-case words and digits', text: 'sk-internationalizationandlocalization2026guide' },
      { name: 'too short', text: `sk-${base62(24, 3)}` },
    ],
  },
  {
    kind: 'anthropic-key',
    positives: [
      { name: 'API key', make: (seed) => `ANTHROPIC_API_KEY=sk-ant-api03-${url64(93, seed)}AA` },
      { name: 'admin key', make: (seed) => `sk-ant-admin01-${url64(93, seed + 1)}AA` },
      { name: 'OAuth token', make: (seed) => `sk-ant-oat01-${url64(93, seed + 2)}AA` },
    ],
    negatives: [
      { name: 'all-x placeholder', text: 'ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'words', text: 'sk-ant-api03-your-anthropic-api-key-goes-here' },
      { name: 'prefix only', text: 'Anthropic keys start with sk-ant-api03- followed by the secret' },
    ],
  },
];
