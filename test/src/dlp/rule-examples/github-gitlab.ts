import { githubToken, randomText } from '../../../support/fake-tokens.js';
import { alphabets, base62, jsonPart, type KindExamples } from './examples.js';

function installationToken(seed: number): string {
  const header = jsonPart({ alg: 'RS256', typ: 'JWT', kid: randomText(12, seed, alphabets.hex) });
  const claims = { iss: 'github', aid: 100_000 + seed, iid: 5_000_000 + seed, exp: 1_777_300_000 + seed, per: randomText(60, seed + 1) };
  return `ghs_${100_000 + seed}_${header}.${jsonPart(claims)}.${randomText(342, seed + 2, alphabets.base64url)}`;
}

export const githubGitlabExamples: KindExamples[] = [
  {
    kind: 'github-token',
    positives: [
      {
        name: 'token as the user of an x-oauth-basic URL',
        make: (seed) => `"private-pkg": "git+https://${randomText(40, seed + 40, '0123456789abcdef')}:x-oauth-basic@github.com/example/example.git#v1.0.0"`,
      },
      { name: 'classic personal token', make: (seed) => `GITHUB_TOKEN=${githubToken('ghp', seed)}` },
      { name: 'OAuth token', make: (seed) => githubToken('gho', seed + 10) },
      { name: 'user-to-server token', make: (seed) => githubToken('ghu', seed + 15) },
      { name: 'installation token, opaque', make: (seed) => githubToken('ghs', seed + 20) },
      { name: 'refresh token', make: (seed) => githubToken('ghr', seed + 25) },
      { name: 'installation token, ghs_<app id>_<JWT>', make: installationToken },
      { name: 'fine-grained token', make: (seed) => `github_pat_${base62(22, seed + 30)}_${base62(59, seed + 31)}` },
    ],
    negatives: [
      { name: 'x-oauth-basic URL with a template', text: 'git+https://${GITHUB_TOKEN}:x-oauth-basic@github.com/example/example.git' },
      { name: 'all-x placeholder', text: 'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'sequential fixture', text: 'ghp_1234567890abcdefghijklmnopqrstuvwxyz' },
      { name: 'one character short', text: `ghp_${base62(35, 3)}` },
      // Random look-alikes (made up by hand or by a model) fail the CRC32 of a real token.
      { name: 'checksum fails: random 36 characters', text: `ghp_${base62(36, 5)}` },
      { name: 'checksum fails: one character changed', text: githubToken('ghp', 6).replace(/.$/, (last) => (last === 'a' ? 'b' : 'a')) },
      { name: 'ghs_ id with a non-JWT tail', text: `ghs_12345_${randomText(20, 4)}` },
      { name: 'a GitHub URL', text: 'https://github.com/owner/repo/blob/main/ghp_notes.md' },
    ],
  },
  {
    kind: 'gitlab-token',
    positives: [
      { name: 'personal access token', make: (seed) => `GITLAB_TOKEN=glpat-${randomText(20, seed, alphabets.base64url)}` },
      {
        name: 'routable personal token',
        make: (seed) => `glpat-${randomText(27, seed + 1, alphabets.base64url)}.01.${randomText(9, seed + 2, alphabets.hex)}`,
      },
      { name: 'deploy token', make: (seed) => `gldt-${randomText(20, seed + 3, alphabets.base64url)}` },
      { name: 'runner token', make: (seed) => `glrt-${randomText(20, seed + 4, alphabets.base64url)}` },
      { name: 'pipeline trigger token', make: (seed) => `glptt-${randomText(40, seed + 5, alphabets.hex)}` },
    ],
    negatives: [
      { name: 'all-x placeholder', text: 'glpat-xxxxxxxxxxxxxxxxxxxx' },
      { name: 'words', text: 'set GITLAB_TOKEN to glpat-your-personal-access-token' },
      { name: 'too short', text: `glpat-${randomText(12, 7, alphabets.base64url)}` },
      { name: 'example marker', text: 'glpat-EXAMPLE1234abcdXYZ9876' },
    ],
  },
];
