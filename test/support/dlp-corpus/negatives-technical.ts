import { createHash } from 'node:crypto';
import { alphabets, derBase64, randomBytes, wrap, type Draw } from './draw.js';
import { snowflake } from './formats-platform.js';
import type { NegativeClass } from './negatives-prose.js';

// Negatives that look technical: platform ids, hashes and commit ids (also beside labels), UUIDs, base64 images,
// public keys and certificates, shop and news URLs whose path starts with sk-, and documentation placeholders.

const repeat = (count: number, make: (index: number) => string) => Array.from({ length: count }, (_, index) => make(index));

const discordIds: NegativeClass = (draw) =>
  repeat(16, (index) => {
    const id = snowflake(draw);
    return (
      [
        `ผู้ใช้ <@${id}> เข้าร่วมห้อง <#${snowflake(draw)}> แล้ว`,
        `Discord user id: ${id}, guild id: ${snowflake(draw)}`,
        `https://discord.com/channels/${snowflake(draw)}/${id}/${snowflake(draw)}`,
        `{"id": "${id}", "channel_id": "${snowflake(draw)}", "application_id": "${snowflake(draw)}"}`,
      ][index % 4] ?? ''
    );
  });

const lineIds: NegativeClass = (draw) =>
  repeat(16, (index) => {
    const user = `U${draw.text(32, alphabets.hex)}`;
    return (
      [
        `LINE user id: ${user}`,
        `{"type": "user", "userId": "${user}"}`,
        `ไอดีผู้ใช้ LINE ของคุณคือ ${user} ส่วนไอดีกลุ่มคือ C${draw.text(32, alphabets.hex)}`,
        `"source": {"type": "room", "roomId": "R${draw.text(32, alphabets.hex)}", "userId": "${user}"}`,
      ][index % 4] ?? ''
    );
  });

const telegramIds: NegativeClass = (draw) =>
  repeat(12, (index) => {
    const chat = `-100${draw.number(10)}`;
    return (
      [
        `Telegram chat id: ${chat}`,
        `{"chat": {"id": ${chat}, "type": "supergroup"}, "from": {"id": ${draw.number(10)}}}`,
        `ห้องแชท ${chat} ข้อความที่ ${draw.int(1, 99_999)}`,
      ][index % 3] ?? ''
    );
  });

function digest(algorithm: string, draw: Draw, encoding: 'hex' | 'base64' = 'hex'): string {
  return createHash(algorithm).update(randomBytes(draw, 32)).digest(encoding);
}

const hashes: NegativeClass = (draw) =>
  repeat(
    40,
    (index) =>
      [
        `md5: ${digest('md5', draw)}`,
        `SHA-1 ${digest('sha1', draw)}  ubuntu-24.04-live-server-amd64.iso`,
        `sha256:${digest('sha256', draw)}`,
        `commit ${digest('sha1', draw)}\nAuthor: Somchai <somchai@example.co.th>`,
        `แก้ไขแล้วใน commit ${digest('sha1', draw).slice(0, 7)} และ ${digest('sha1', draw)}`,
        `docker pull node@sha256:${digest('sha256', draw)}`,
        `"integrity": "sha512-${digest('sha512', draw, 'base64')}"`,
        `checksum: ${digest('sha256', draw)}`,
        `ETag: "${digest('md5', draw)}"`,
        `${digest('sha256', draw)}  saeng-1.4.0.tar.gz`,
      ][index % 10] ?? '',
  );

function uuid(draw: Draw): string {
  const hex = draw.text(32, alphabets.hex);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${draw.pick(['8', '9', 'a', 'b'])}${hex.slice(17, 20)}-${hex.slice(20)}`;
}

const uuids: NegativeClass = (draw) =>
  repeat(
    16,
    (index) =>
      [
        `request id: ${uuid(draw)}`,
        `{"id": "${uuid(draw)}", "trace_id": "${uuid(draw)}"}`,
        `Idempotency-Key: ${uuid(draw)}`,
        `หมายเลขอ้างอิงการชำระเงิน ${uuid(draw)}`,
      ][index % 4] ?? '',
  );

const pngHeader = '89504e470d0a1a0a0000000d49484452';
const jpegHeader = 'ffd8ffe000104a46494600010100000100010000';

const dataImages: NegativeClass = (draw) =>
  repeat(10, (index) => {
    const png = derBase64(draw, pngHeader, draw.int(200, 2_000));
    return (
      [
        `![แผนภูมิ](data:image/png;base64,${png})`,
        `<img src="data:image/jpeg;base64,${derBase64(draw, jpegHeader, draw.int(300, 2_000))}" alt="photo">`,
        `background: url("data:image/png;base64,${png}");`,
        `{"image": "data:image/webp;base64,${derBase64(draw, '52494646', 600)}"}`,
        `data:image/png;base64,${png}`,
      ][index % 5] ?? ''
    );
  });

const publicKeys: NegativeClass = (draw) =>
  repeat(15, (index) => {
    const rsa = derBase64(draw, '000000077373682d727361000000030100010000010100', 279);
    const spki = derBase64(draw, '30820122300d06092a864886f70d01010105000382010f003082010a0282010100', 294);
    const certificate = derBase64(draw, '3082038d30820275a003020102021400', 913);
    return (
      [
        `ssh-rsa ${rsa} somchai@laptop`,
        `ssh-ed25519 ${derBase64(draw, '0000000b7373682d6564323535313900000020', 51)} deploy@saeng`,
        `-----BEGIN PUBLIC KEY-----\n${wrap(spki)}\n-----END PUBLIC KEY-----`,
        `ใบรับรองของเซิร์ฟเวอร์:\n-----BEGIN CERTIFICATE-----\n${wrap(certificate)}\n-----END CERTIFICATE-----`,
        `Public key body (SPKI, for the verifier):\n${wrap(spki)}`,
      ][index % 5] ?? ''
    );
  });

const skProducts = [
  'sk-ii-facial-treatment-essence-230ml',
  'sk-ii-genoptics-aura-essence-serum-50ml',
  'sk-ii-skinpower-advanced-cream-80g',
  'sk-hynix-unveils-hbm4-at-computex',
];

const skUrls: NegativeClass = (draw) =>
  repeat(16, (index) => {
    const product = skProducts[index % skProducts.length] ?? '';
    return (
      [
        `ดูสินค้าได้ที่ https://www.lazada.co.th/products/${product}-i${draw.number(10)}-s${draw.number(11)}.html`,
        `https://shopee.co.th/${product.replace(/^sk-(ii|hynix)/, (_, brand: string) => `SK-${brand.toUpperCase()}`)}-i.${draw.number(9)}.${draw.number(11)}`,
        `ข่าว: https://news.skhynix.com/sk-hynix-${draw.pick(['unveils-hbm4', 'q3-2025-earnings', 'ai-memory-roadmap'])}-${draw.number(4)}/ และ https://www.sk-ii.co.th/th/product/${product}.html`,
        `https://www.jd.co.th/product/${product}_${draw.text(24, alphabets.base36)}.html`,
      ][index % 4] ?? ''
    );
  });

const placeholders: NegativeClass = (draw) => [
  `STRIPE_SECRET_KEY=sk_live_${'A'.repeat(24)}`,
  `OPENAI_API_KEY=sk-${'x'.repeat(48)}`,
  `HF_TOKEN=hf_${'x'.repeat(34)}`,
  'export HF_TOKEN=hf_xxxx',
  'Authorization: Bearer <YOUR_TOKEN>',
  'GITHUB_TOKEN=<your-github-token>',
  'api_key: [REDACTED]',
  'password: ********',
  '"password": "<password>"',
  `AWS_ACCESS_KEY_ID=AKIA${draw.text(9, alphabets.base32)}EXAMPLE`,
  `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/${draw.text(8, alphabets.base62)}EXAMPLEKEY`,
  `token: ghp_${'X'.repeat(36)}`,
  'SLACK_BOT_TOKEN=xoxb-your-bot-token',
  'DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DATABASE',
  'REDIS_URL=redis://:${REDIS_PASSWORD}@redis:6379/0',
  'mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/',
  'TELEGRAM_BOT_TOKEN=123456789:YOUR_TELEGRAM_BOT_TOKEN_HERE',
  'LINE_CHANNEL_SECRET=your_channel_secret',
  'DISCORD_TOKEN=your-discord-bot-token-goes-here',
  'ใส่คีย์ของคุณแทน `sk-...` ในไฟล์ .env (เช่น OPENAI_API_KEY=sk-...)',
];

/** base64 of an SSH public key blob: its type string, then the key fields (RFC 4253 §6.6, RFC 5656, RFC 8709). */
function sshBlob(draw: Draw, type: 'ssh-ed25519' | 'ssh-rsa' | 'ecdsa-sha2-nistp256'): string {
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const parts: Buffer[] = [Buffer.from(type)];
  if (type === 'ssh-ed25519') parts.push(randomBytes(draw, 32));
  else if (type === 'ssh-rsa') parts.push(Buffer.from([1, 0, 1]), Buffer.concat([Buffer.from([0]), randomBytes(draw, 256)]));
  else parts.push(Buffer.from('nistp256'), Buffer.concat([Buffer.from([4]), randomBytes(draw, 64)]));
  return Buffer.concat(parts.map(field)).toString('base64');
}

const sshPublicKeys: NegativeClass = (draw) =>
  repeat(20, (index) => {
    const ed25519 = sshBlob(draw, 'ssh-ed25519');
    return (
      [
        `ssh-ed25519 ${ed25519} somchai@laptop`,
        `ssh-rsa ${sshBlob(draw, 'ssh-rsa')} deploy@ci`,
        `ecdsa-sha2-nistp256 ${sshBlob(draw, 'ecdsa-sha2-nistp256')} root@bastion`,
        `command="/usr/bin/rrsync -ro /srv/backup",no-pty,no-agent-forwarding,from="10.0.0.0/8" ssh-ed25519 ${ed25519} backup@nas`,
        `# ~/.ssh/authorized_keys\nrestrict,port-forwarding,permitopen="localhost:5432" ssh-rsa ${sshBlob(draw, 'ssh-rsa')} tunnel@app`,
        `github.com ssh-ed25519 ${ed25519}`,
        `เพิ่มคีย์สาธารณะนี้ใน GitHub ได้เลยครับ:\n\`\`\`\nssh-ed25519 ${ed25519} saeng-bot\n\`\`\``,
        `sk-ssh-ed25519@openssh.com ${Buffer.concat([Buffer.from('0000001a', 'hex'), Buffer.from('sk-ssh-ed25519@openssh.com'), randomBytes(draw, 50)]).toString('base64')} yubikey`,
        `{"title": "deploy key", "key": "ssh-ed25519 ${ed25519} deploy@saeng", "read_only": true}`,
        `The key fingerprint is SHA256:${randomBytes(draw, 32).toString('base64').replace(/=+$/, '')} somchai@laptop`,
      ][index % 10] ?? ''
    );
  });

const wireguardPublic: NegativeClass = (draw) =>
  repeat(12, (index) => {
    const key = randomBytes(draw, 32).toString('base64');
    return (
      [
        `[Peer]\nPublicKey = ${key}\nAllowedIPs = 10.8.0.${draw.int(2, 250)}/32\nEndpoint = vpn.example.co.th:51820`,
        `peer: ${key}\n  endpoint: 203.0.113.${draw.int(2, 250)}:51820\n  allowed ips: 10.8.0.0/24`,
        `public key: ${key}`,
        `คีย์สาธารณะของเซิร์ฟเวอร์ WireGuard คือ ${key} ใส่ไว้ในส่วน [Peer] ได้เลยครับ`,
        `wg set wg0 peer ${key} allowed-ips 10.8.0.${draw.int(2, 250)}/32`,
        `"publicKey": "${key}"`,
      ][index % 6] ?? ''
    );
  });

/** ASCII armour with the checksum line of OpenPGP (RFC 4880 §6.2). */
function pgpBlock(draw: Draw): string {
  const body = derBase64(draw, '99020d04', 525);
  return `-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n${wrap(body)}\n=${draw.text(4, alphabets.base64)}\n-----END PGP PUBLIC KEY BLOCK-----`;
}

const publicBlocks: NegativeClass = (draw) =>
  repeat(12, (index) => {
    const spki = derBase64(draw, '3059301306072a8648ce3d020106082a8648ce3d03010703420004', 91);
    return (
      [
        `-----BEGIN PUBLIC KEY-----\n${wrap(spki)}\n-----END PUBLIC KEY-----`,
        `-----BEGIN CERTIFICATE-----\n${wrap(derBase64(draw, '3082038d30820275a003020102021400', 913))}\n-----END CERTIFICATE-----`,
        pgpBlock(draw),
        `กุญแจสาธารณะ PGP ของทีม:\n${pgpBlock(draw)}`,
        `-----BEGIN RSA PUBLIC KEY-----\n${wrap(derBase64(draw, '3082010a0282010100', 270))}\n-----END RSA PUBLIC KEY-----`,
        `{"kty": "RSA", "kid": "${draw.text(16, alphabets.hex)}", "use": "sig", "n": "${randomBytes(draw, 256).toString('base64url')}", "e": "AQAB"}`,
      ][index % 6] ?? ''
    );
  });

const identifiers: NegativeClass = (draw) =>
  repeat(16, (index) => {
    const versionId = draw.text(32, `${alphabets.base62}._`);
    return (
      [
        `{"ETag": "\\"${digest('md5', draw)}\\"", "VersionId": "${versionId}"}`,
        `aws s3api get-object --bucket saeng-backup --key db.dump --version-id ${versionId} db.dump`,
        `x-amz-version-id: ${versionId}\nx-amz-request-id: ${draw.text(16, alphabets.upperAlnum)}`,
        `เวอร์ชันของไฟล์ใน S3 คือ ${versionId}`,
        `git rev-parse HEAD\n${digest('sha1', draw)}`,
        `"head_sha": "${digest('sha1', draw)}", "run_id": ${draw.number(10)}`,
        `image: ghcr.io/saeng-bot/saeng@sha256:${digest('sha256', draw)}`,
        `REPOSITORY   TAG      DIGEST\nnode         22-slim  sha256:${digest('sha256', draw)}`,
        `"token_sha256": "${digest('sha256', draw)}"`,
        `request_id=${uuid(draw)} trace=${draw.text(32, alphabets.hex)}`,
      ][index % 10] ?? ''
    );
  });

const templatesAndMasks: NegativeClass = () => [
  'GITHUB_TOKEN=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'API_KEY=your_token_here',
  'Authorization: Bearer <TOKEN>',
  'token: ${GITHUB_TOKEN}',
  'password: "{{ secrets.DB_PASSWORD }}"',
  'set API_KEY=%API_KEY%',
  '$env:OPENAI_API_KEY = $env:KEY',
  'คีย์ที่ตั้งไว้คือ sk-…abcd (แสดงเฉพาะ 4 ตัวท้าย)',
  'Your token ghp_**** was revoked.',
  'OPENAI_API_KEY=sk-...abcd',
  'AZURE_CLIENT_SECRET=<client-secret>',
  'DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/<id>/<token>',
  'ADO_PAT=$(System.AccessToken)',
  'LINE_CHANNEL_ACCESS_TOKEN={{ line_token }}',
  'secret: !vault |\n  $ANSIBLE_VAULT;1.1;AES256',
];

const variableAssignments = [
  'password = os.environ["DB_PASSWORD"]',
  'password: ""',
  "password = ''",
  'token = getToken()',
  'api_key = config.get("api_key")',
  'const token = req.headers.authorization;',
  'password := os.Getenv("DB_PASSWORD")',
  'DB_PASSWORD=${DB_PASSWORD:?required}',
  'password = self.password_input.text()',
  'token: process.env.SLACK_TOKEN!',
  '"password": null',
  'password = None  # set from the vault at runtime',
  'API_KEY=$(cat /run/secrets/api_key)',
  'let apiKey = ProcessInfo.processInfo.environment["API_KEY"]',
  'client_secret = settings.AZURE_CLIENT_SECRET',
];

const fieldNames = [
  "| password | string | the user's password |",
  '| Field | Type | Description |\n|---|---|---|\n| token | string | The access token returned by /login |\n| password | string | 8–64 characters |',
  '<label for="password">รหัสผ่าน</label>\n<input id="password" type="password">',
  'password (string, required): the account password, 8 to 64 characters',
  '- `password`: รหัสผ่านของผู้ใช้ (อย่างน้อย 8 ตัวอักษร)',
  'Password: ________  Confirm password: ________',
  '"password": {"type": "string", "minLength": 12, "format": "password"}',
  'components:\n  schemas:\n    Login:\n      properties:\n        password:\n          type: string\n          format: password',
  '-p, --password=PASSWORD   the password to connect with',
  'api_key (required) — your API key from the dashboard',
  'รหัสผ่าน: (ต้องมีอย่างน้อย 8 ตัว ประกอบด้วยตัวเลขและตัวอักษร)',
  'Enter password: ',
];

export const technicalClasses: Record<string, NegativeClass> = {
  'discord-snowflake': discordIds,
  'line-user-id': lineIds,
  'telegram-chat-id': telegramIds,
  hash: hashes,
  uuid: uuids,
  'data-uri-image': dataImages,
  'public-key': publicKeys,
  'sk-url': skUrls,
  'doc-placeholder': placeholders,
  'ssh-public-key': sshPublicKeys,
  'wireguard-public-key': wireguardPublic,
  'public-block': publicBlocks,
  'id-and-digest': identifiers,
  'template-or-mask': templatesAndMasks,
  'variable-assignment': () => variableAssignments,
  'field-name': () => fieldNames,
};
