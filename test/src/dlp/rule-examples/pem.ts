import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, randomBytes, type KindExamples } from './examples.js';

// DER bodies built from the real ASN.1 starts of each structure, then random bytes: the scanner sees exactly the
// first bytes a real key, certificate or public key has.
const rsaPkcs1 = [0x30, 0x82, 0x04, 0xa4, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00];
const pkcs8Rsa = [
  0x30, 0x82, 0x04, 0xbd, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x04, 0x82, 0x04, 0xa7,
];
const sec1P256 = [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20];
const pkcs8Ed25519 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
const encryptedPkcs8 = [0x30, 0x82, 0x05, 0x1c, 0x30, 0x4e, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d, 0x30, 0x41];
const certificate = [0x30, 0x82, 0x03, 0x77, 0x30, 0x82, 0x02, 0x5f, 0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x14];
const publicKeyInfo = [
  0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03, 0x82, 0x01, 0x0f, 0x00,
];
const rsaPublicKey = [0x30, 0x82, 0x01, 0x0a, 0x02, 0x82, 0x01, 0x01, 0x00];

function der(start: readonly number[], length: number, seed: number): string {
  return Buffer.concat([Buffer.from(start), randomBytes(length - start.length, seed)]).toString('base64');
}

/** Base64 wrapped at 64 characters, as PEM writes it. */
function wrapped(base64: string): string {
  return (base64.match(/.{1,64}/g) ?? []).join('\n');
}

function armoured(label: string, base64: string): string {
  return `-----BEGIN ${label}-----\n${wrapped(base64)}\n-----END ${label}-----`;
}

const firstLine = (base64: string) => base64.slice(0, 64);

export const pemExamples: KindExamples[] = [
  {
    kind: 'pem-private-key',
    positives: [
      { name: 'RSA PEM block', make: (seed) => armoured('RSA PRIVATE KEY', der(rsaPkcs1, 600, seed)) },
      { name: 'PKCS#8 block cut after one line', make: (seed) => `-----BEGIN PRIVATE KEY-----\n${firstLine(der(pkcs8Rsa, 300, seed + 1))}` },
      {
        name: 'OpenSSH header and the start of its body',
        make: (seed) => `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${randomText(20, seed + 2, alphabets.base64)}`,
      },
      { name: 'PKCS#8 body without armour', make: (seed) => wrapped(der(pkcs8Rsa, 400, seed + 3)) },
      { name: 'PKCS#1 body line without armour', make: (seed) => firstLine(der(rsaPkcs1, 200, seed + 4)) },
      { name: 'EC (SEC1) body without armour', make: (seed) => der(sec1P256, 121, seed + 5) },
      { name: 'Ed25519 PKCS#8 body without armour', make: (seed) => der(pkcs8Ed25519, 48, seed + 6) },
      { name: 'encrypted PKCS#8 body without armour', make: (seed) => firstLine(der(encryptedPkcs8, 200, seed + 7)) },
      {
        name: 'OpenSSH body without armour',
        make: (seed) => `b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW${randomText(60, seed + 8, alphabets.base64)}`,
      },
      { name: 'PEM block in a JSON string', make: (seed) => JSON.stringify({ private_key: armoured('PRIVATE KEY', der(pkcs8Rsa, 300, seed + 9)) }) },
      {
        name: 'PGP private key block',
        make: (seed) => `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF${randomText(58, seed + 10, alphabets.base64)}`,
      },
      {
        name: 'base64-encoded PEM (Kubernetes secret)',
        make: (seed) => `tls.key: ${Buffer.from(armoured('PRIVATE KEY', der(pkcs8Rsa, 120, seed + 11))).toString('base64')}`,
      },
      {
        name: 'PuTTY key file',
        make: (seed) => `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n${randomText(44, seed + 12, alphabets.base64)}`,
      },
    ],
    negatives: [
      { name: 'a header named in prose', text: 'the file should begin with `-----BEGIN OPENSSH PRIVATE KEY-----` and end with the matching END line' },
      { name: 'a header and a placeholder body', text: '-----BEGIN RSA PRIVATE KEY-----\n<your key here>\n-----END RSA PRIVATE KEY-----' },
      { name: 'a header and dots', text: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg...\n-----END PRIVATE KEY-----' },
      {
        name: 'a header and base64 of words',
        text: armoured('PRIVATE KEY', Buffer.from('this is not a key, it only shows where the key goes').toString('base64')),
      },
      { name: 'Thai prose about keys', text: 'ไฟล์กุญแจส่วนตัวจะขึ้นต้นด้วย -----BEGIN RSA PRIVATE KEY----- ห้ามส่งให้ใคร' },
      { name: 'certificate', text: armoured('CERTIFICATE', der(certificate, 890, 1)) },
      { name: 'certificate body without armour', text: wrapped(der(certificate, 890, 2)) },
      { name: 'public key', text: armoured('PUBLIC KEY', der(publicKeyInfo, 294, 3)) },
      { name: 'public key body line', text: firstLine(der(publicKeyInfo, 294, 4)) },
      { name: 'RSA public key', text: armoured('RSA PUBLIC KEY', der(rsaPublicKey, 270, 5)) },
      { name: 'ssh public key', text: `ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ${randomText(330, 6, alphabets.base64)} somchai@laptop` },
      { name: 'ed25519 ssh public key', text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${randomText(43, 7, alphabets.base64)} somchai@laptop` },
    ],
  },
];
