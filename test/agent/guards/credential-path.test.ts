import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPath } from '../../../agent/guards/credential-path.js';

let base: string;
let sandbox: string;

beforeAll(() => {
  base = mkdtempSync(path.join(tmpdir(), 'saeng-path-'));
  sandbox = path.join(base, 'files', 'console_test');
  mkdirSync(sandbox, { recursive: true });
  writeFileSync(path.join(sandbox, 'notes.md'), '# notes');
  mkdirSync(path.join(base, 'outside'));
  writeFileSync(path.join(base, 'outside', 'secret.txt'), 'x');
  symlinkSync(path.join(base, 'outside'), path.join(sandbox, 'escape'));
  symlinkSync(path.join(base, 'outside', 'secret.txt'), path.join(sandbox, 'innocent.txt'));
  mkdirSync(path.join(base, 'fake-home', '.ssh'), { recursive: true });
  symlinkSync(path.join(base, 'fake-home', '.ssh'), path.join(sandbox, 'keys'));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('checkPath: allowed', () => {
  it.each([
    ['a plain name', 'notes.md'],
    ['a new file', 'รายงาน ประจำเดือน.csv'],
    ['./ and a harmless ..', './sub/../notes.md'],
    ['.env.example', '.env.example'],
    ['a name that merely starts with dots', '...notes.md'],
    ['an absolute path inside the sandbox', () => path.join(sandbox, 'notes.md')],
  ])('%s', (_name, requested) => {
    const target = typeof requested === 'function' ? requested() : requested;
    const result = checkPath(target, sandbox);
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.resolved.startsWith(sandbox)).toBe(true);
  });
});

describe('checkPath: refused', () => {
  const cases: [string, string | (() => string), RegExp][] = [
    ['home ssh key', '~/.ssh/id_rsa', /credential location \(\.ssh\)|private key/],
    ['aws credentials', '~/.aws/credentials', /\.aws/],
    ['$HOME form', '$HOME/.aws/credentials', /\.aws/],
    ['gnupg', '~/.gnupg/private-keys-v1.d', /\.gnupg/],
    ['.env in the sandbox', '.env', /\.env/],
    ['.env.production', 'config/.env.production', /\.env/],
    ['upper-case .ENV (case-insensitive file systems)', '.ENV', /\.env/],
    ['.netrc', '~/.netrc', /\.netrc/],
    ['.npmrc', '.npmrc', /\.npmrc/],
    ['.git-credentials', '~/.git-credentials', /git-credentials/],
    ['gcloud', '~/.config/gcloud/credentials.db', /gcloud/],
    ['kube config', '~/.kube/config', /\.kube\/config/],
    ['docker config', '~/.docker/config.json', /docker/],
    ['Chrome profile (Linux)', '~/.config/google-chrome/Default/Login Data', /google-chrome/],
    ['Chrome profile (Windows)', 'C:\\Users\\me\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Cookies', /google\/chrome/],
    ['Edge via %LOCALAPPDATA%', '%LOCALAPPDATA%\\Microsoft\\Edge\\User Data\\Local State', /microsoft\/edge/],
    ['Brave', '~/.config/BraveSoftware/Brave-Browser/Default/Cookies', /brave/],
    ['Firefox profile', '~/.mozilla/firefox/abc.default/logins.json', /mozilla/],
    ['Firefox on macOS', '~/Library/Application Support/Firefox/Profiles/x/key4.db', /firefox\/profiles/],
    ['key files by name', 'backup/id_ed25519.pub', /private key/],
    ['pem', 'server.pem', /\.pem/],
    ['key', 'tls.KEY', /\.key/],
    ['p12 / pfx', 'cert.pfx', /\.pfx/],
    ['.. out of the sandbox', '../../outside/secret.txt', /outside the sandbox/],
    ['absolute path elsewhere', '/etc/passwd', /outside the sandbox/],
    ['URL-encoded ..', '%2e%2e/%2e%2e/outside/secret.txt', /outside the sandbox/],
    ['double URL-encoded ..', '%252e%252e%252f%252e%252e%252foutside', /outside the sandbox/],
    ['encoded ssh', '~%2F.ssh%2Fid_rsa', /\.ssh|private key/],
    ['file:// URL', 'file:///etc/shadow', /outside the sandbox/],
    ['Windows \\\\?\\ prefix', '\\\\?\\C:\\Windows\\System32', /outside the sandbox/],
    ['UNC path', '\\\\server\\share\\x.txt', /outside the sandbox/],
    ['a symlinked folder that leaves the sandbox', 'escape/secret.txt', /outside the sandbox/],
    ['a symlinked file that leaves the sandbox', 'innocent.txt', /outside the sandbox/],
    ['a symlink to a .ssh folder', 'keys/id_rsa', /\.ssh|private key|outside/],
    ['/proc/self/root', '/proc/self/root/etc/passwd', /outside the sandbox/],
    ['NUL byte', 'notes.md\u0000.txt', /invalid path/],
    ['malformed encoding', '%E0%A4%A', /invalid path encoding/],
    ['the home directory itself', '~', /outside the sandbox/],
  ];
  it.each(cases)('%s', (_name, requested, reason) => {
    const result = checkPath(typeof requested === 'function' ? requested() : requested, sandbox);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('never lets a home-directory path through, whatever the sandbox', () => {
    expect(checkPath(path.join(homedir(), 'notes.txt'), sandbox).ok).toBe(false);
  });
});
