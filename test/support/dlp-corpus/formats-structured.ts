import { alphabets, base64url, derBase64, wrap, type Draw } from './draw.js';
import type { CredentialFormat } from './format.js';

// Credentials with structure: Azure strings, JWTs, PEM private keys, URLs with a password, and the generic
// label-plus-value assignments.

/** A PEM private key: the DER prefix of its type (RFC 8017 / 5208 / 5915, OpenSSH's magic) and a random rest. */
const pemTypes = [
  { name: 'rsa-pkcs1', label: 'RSA PRIVATE KEY', prefix: '308204a40201000282010100', bytes: 1192 },
  { name: 'pkcs8', label: 'PRIVATE KEY', prefix: '308204be020100300d06092a864886f70d0101010500048204a8', bytes: 1218 },
  { name: 'ec', label: 'EC PRIVATE KEY', prefix: '30770201010420', bytes: 121 },
  { name: 'openssh', label: 'OPENSSH PRIVATE KEY', prefix: Buffer.from('openssh-key-v1\0').toString('hex') + '000000046e6f6e65000000046e6f6e65', bytes: 464 },
  { name: 'encrypted-pkcs8', label: 'ENCRYPTED PRIVATE KEY', prefix: '3082051c304e06092a864886f70d01050d3041', bytes: 1312 },
] as const;

function pemBlock(label: string, body: string): string {
  return `-----BEGIN ${label}-----\n${wrap(body, label === 'OPENSSH PRIVATE KEY' ? 70 : 64)}\n-----END ${label}-----`;
}

const users = ['app', 'admin', 'saeng', 'postgres', 'root', 'svc_bot', 'report'];
const hosts = ['db.internal.example.co.th', '10.0.3.12', 'pg-prod.c9x2a.ap-southeast-1.rds.amazonaws.com', 'cache.local', 'mq.example.com'];
const databaseSchemes = [
  { scheme: 'postgres', port: 5432, path: '/saeng' },
  { scheme: 'postgresql', port: 5432, path: '/app?sslmode=require' },
  { scheme: 'mysql', port: 3306, path: '/shop' },
  { scheme: 'mariadb', port: 3306, path: '/wiki' },
  { scheme: 'mongodb', port: 27017, path: '/app?authSource=admin' },
  { scheme: 'mongodb+srv', port: 0, path: '/app?retryWrites=true&w=majority' },
  { scheme: 'redis', port: 6379, path: '/0' },
  { scheme: 'rediss', port: 6380, path: '/1' },
  { scheme: 'amqp', port: 5672, path: '/vhost' },
] as const;

const words = ['Sunflower', 'Bangkok', 'Chiangmai', 'Tiger', 'Mango', 'Somchai', 'Durian', 'Elephant', 'Lotus'];

function payload(draw: Draw): Record<string, unknown> {
  const issuedAt = draw.int(1_700_000_000, 1_780_000_000);
  return draw.pick([
    { sub: draw.number(10), name: draw.pick(words), iat: issuedAt, exp: issuedAt + 3600 },
    { iss: 'supabase', ref: draw.text(20, alphabets.lower), role: 'service_role', iat: issuedAt, exp: issuedAt + 315_360_000 },
    { aud: 'api://default', scp: ['read', 'write'], uid: draw.text(20), iat: issuedAt, exp: issuedAt + 900 },
  ]);
}

export const structuredFormats: readonly CredentialFormat[] = [
  // 64 random bytes in base64: 86 characters and "==".
  { kind: 'azure-storage-key', name: 'account-key', labelled: true, make: (draw) => `${draw.text(86, alphabets.base64)}==` },
  {
    kind: 'azure-connection-string',
    name: 'storage',
    make: (draw) =>
      `DefaultEndpointsProtocol=https;AccountName=${draw.text(12, alphabets.lower)};AccountKey=${draw.text(86, alphabets.base64)}==;EndpointSuffix=core.windows.net`,
  },
  {
    kind: 'azure-connection-string',
    name: 'service-bus',
    make: (draw) =>
      `Endpoint=sb://${draw.text(10, alphabets.lower)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${draw.text(43, alphabets.base64)}=`,
  },
  {
    kind: 'jwt',
    name: 'hs256',
    make: (draw) => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url(payload(draw))}.${draw.text(43, alphabets.base64url)}`,
  },
  {
    kind: 'jwt',
    name: 'rs256',
    make: (draw) =>
      `${base64url({ alg: 'RS256', kid: draw.text(16, alphabets.hex), typ: 'JWT' })}.${base64url(payload(draw))}.${draw.text(342, alphabets.base64url)}`,
  },
  ...pemTypes.map((type): CredentialFormat => ({
    kind: 'pem-private-key',
    name: type.name,
    make: (draw) => pemBlock(type.label, derBase64(draw, type.prefix, type.bytes)),
  })),
  ...databaseSchemes.map(({ scheme, port, path }): CredentialFormat => ({
    kind: 'database-url',
    name: scheme,
    make: (draw) => {
      const user = scheme.startsWith('redis') ? draw.pick(['', 'default']) : draw.pick(users);
      const host = scheme === 'mongodb+srv' ? `cluster0.${draw.text(5, alphabets.base36)}.mongodb.net` : `${draw.pick(hosts)}:${port}`;
      return `${scheme}://${user}:${draw.text(draw.int(14, 24), alphabets.urlPassword)}@${host}${path}`;
    },
  })),
  {
    kind: 'basic-auth-url',
    name: 'https',
    make: (draw) =>
      `https://${draw.pick(users)}:${draw.text(draw.int(12, 20), alphabets.urlPassword)}@${draw.pick(['git.example.co.th', 'registry.example.com'])}/v2/`,
  },
  {
    kind: 'basic-auth-url',
    name: 'http-ip',
    make: (draw) => `http://admin:${draw.text(draw.int(12, 20), alphabets.urlPassword)}@192.168.${draw.int(0, 9)}.${draw.int(2, 250)}:8080/manager/html`,
  },
  { kind: 'password-assignment', name: 'random', labelled: true, make: (draw) => draw.text(draw.int(12, 20), alphabets.password) },
  {
    kind: 'password-assignment',
    name: 'memorable',
    labelled: true,
    make: (draw) => `${draw.pick(words)}${draw.pick(['@', '#', '!', '_', '.'])}${draw.number(4)}${draw.pick(['!', '$', '', '*'])}`,
  },
  {
    // ADO.NET / ODBC connection strings: `Password=` or `Pwd=` between `;`.
    kind: 'password-assignment',
    name: 'ado-net',
    make: (draw) => `Server=tcp:${draw.pick(hosts)},1433;Database=shop;UID=${draw.pick(users)};Password=${draw.text(draw.int(12, 20), alphabets.urlPassword)};`,
  },
  {
    kind: 'password-assignment',
    name: 'odbc-pwd',
    make: (draw) => `DSN=${draw.pick(['shop', 'hr', 'erp'])};Uid=${draw.pick(users)};Pwd=${draw.text(draw.int(12, 20), alphabets.urlPassword)};`,
  },
  { kind: 'secret-assignment', name: 'base62', labelled: true, make: (draw) => draw.text(draw.int(32, 48)) },
  { kind: 'secret-assignment', name: 'hex-32', labelled: true, make: (draw) => draw.text(32, alphabets.hex) },
  { kind: 'secret-assignment', name: 'base64-44', labelled: true, make: (draw) => `${draw.text(43, alphabets.base64)}=` },
];
