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
};
