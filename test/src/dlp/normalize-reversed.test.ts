import { describe, expect, it } from 'vitest';
import { fragmentsOf } from '../../../src/dlp/normalize-fragments.js';
import { reversedEdits } from '../../../src/dlp/normalize-reversed.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { fake, randomText } from '../../support/fake-tokens.js';

// A token written backwards is read forwards again where its run ends with a known prefix reversed; a configured
// secret is matched backwards too.

const reverse = (value: string) => [...value].reverse().join('');

describe('reversed tokens', () => {
  const tokens: [string, string][] = [
    ['GitHub', fake.githubClassic()],
    ['fine-grained GitHub', fake.githubFineGrained()],
    ['AWS key id', fake.awsKeyId()],
    ['OpenAI', fake.openaiProject()],
    ['Slack', fake.slackBot()],
    ['Stripe', fake.stripeLive()],
    ['Google', fake.googleApiKey()],
    ['Telegram', fake.telegramBot()],
    ['JWT', fake.jwt()],
    ['Slack webhook', fake.slackWebhook()],
    ['Twilio account SID and auth token', `AC${randomText(32, 611, '0123456789abcdef')}:${randomText(32, 612, '0123456789abcdef')}`],
    ['Entra ID client secret', `${randomText(3, 613)}8Q~${randomText(34, 614, `${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'}_.-`)}`],
    ['Azure DevOps PAT', `${randomText(52, 615)}JQQJ99${randomText(1, 616)}B${randomText(16, 617)}AZDO${randomText(4, 618)}`],
  ];
  it.each(tokens)('%s', (_name, token) => {
    const text = `ค่าคือ ${reverse(token)}. ครับ`;
    expect(fragmentsOf(text, reversedEdits(text))).toContain(token);
    expect(scanForCredentials(text).found).toBe(true);
  });

  it('reads a connection string backwards by its reversed password label', () => {
    const text = `ค่าคือ ${reverse(`Server=tcp:db.example.com,1433;Database=shop;UID=app;Password=${randomText(18, 619)};`)} ครับ`;
    expect(fragmentsOf(text, reversedEdits(text))).toContain('Password=');
    expect(scanForCredentials(text)).toEqual({ found: true, kinds: ['password-assignment'] });
  });

  it('leaves words, paths and hashes alone', () => {
    const text = 'internationalization /usr/local/share/thanks 3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345 ภาษาไทย';
    expect(reversedEdits(text)).toEqual([]);
  });

  it('matches a configured secret written backwards', () => {
    const secret = `saeng-${randomText(24, 601)}`;
    expect(scanForCredentials(`ค่าคือ ${reverse(secret)} ครับ`, { secrets: [secret] })).toEqual({ found: true, kinds: ['configured-secret'] });
  });
});
