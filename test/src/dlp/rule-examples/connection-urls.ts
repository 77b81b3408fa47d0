import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, base62, type KindExamples } from './examples.js';

const password = (seed: number) => `${base62(12, seed)}${randomText(2, seed + 1, '!$*-.~')}${base62(6, seed + 2)}`;
const user = (seed: number) => `app${randomText(4, seed, alphabets.digits)}`;

export const connectionUrlExamples: KindExamples[] = [
  {
    kind: 'database-url',
    positives: [
      { name: 'PostgreSQL', make: (seed) => `DATABASE_URL=postgres://${user(seed)}:${password(seed + 1)}@db.internal:5432/saeng` },
      { name: 'PostgreSQL with a driver', make: (seed) => `postgresql+psycopg2://${user(seed + 2)}:${password(seed + 3)}@10.0.0.5/app` },
      { name: 'MySQL on localhost, a weak password', make: (seed) => `mysql://root:hunter${seed % 10}x@localhost:3306/shop` },
      { name: 'MongoDB Atlas', make: (seed) => `mongodb+srv://${user(seed + 4)}:${password(seed + 5)}@cluster0.ab1cd.mongodb.net/?retryWrites=true` },
      { name: 'Redis with a password only', make: (seed) => `REDIS_URL=redis://:${password(seed + 6)}@cache:6379/0` },
      { name: 'AMQP over TLS', make: (seed) => `amqps://${user(seed + 7)}:${password(seed + 8)}@rabbit.example.net/vhost` },
      { name: 'JDBC URL', make: (seed) => `jdbc:mariadb://${user(seed + 9)}:${password(seed + 10)}@db:3306/app` },
      { name: 'percent-encoded password', make: (seed) => `postgres://${user(seed + 11)}:${base62(8, seed + 12)}%40${base62(8, seed + 13)}@db/app` },
      { name: 'placeholder words with a digit', make: (seed) => `postgres://app:Replace_With_${seed % 10}x@db/app` },
    ],
    negatives: [
      { name: 'the word password', text: 'DATABASE_URL=postgres://user:password@localhost:5432/mydb' },
      { name: 'the word pass', text: 'postgres://user:pass@host/db' },
      { name: 'angle-bracket template', text: 'mongodb+srv://<username>:<password>@cluster0.mongodb.net/' },
      { name: 'environment template', text: 'mysql://root:${MYSQL_PASSWORD}@db:3306/app' },
      { name: 'mask', text: 'redis://default:****@cache:6379' },
      { name: 'xxx', text: 'amqp://guest:xxx@rabbit/' },
      { name: 'no password', text: 'postgres://saeng@localhost/saeng and redis://localhost:6379/0' },
      { name: 'scheme in prose', text: 'ใช้ postgres:// หรือ mysql:// นำหน้า URL ของฐานข้อมูล' },
      { name: 'a placeholder phrase', text: 'mysql://admin:REPLACE_WITH_PASSWORD@mysql.server.com:3306/database' },
      { name: 'the user name again (a container default)', text: 'postgres://postgres:postgres@localhost:5432/app' },
      { name: 'fewer than 4 characters', text: 'redis://user:abc@cache:6379' },
      { name: 'one run of characters', text: 'mysql://root:1111@localhost/db and mysql://root:12345678@localhost/db' },
    ],
  },
  {
    kind: 'basic-auth-url',
    positives: [
      { name: 'HTTPS with credentials', make: (seed) => `curl https://${user(seed)}:${password(seed + 1)}@api.example.com/v1/items` },
      { name: 'HTTP on a LAN address', make: (seed) => `http://admin:${password(seed + 2)}@192.168.1.10:8080/status` },
      { name: 'private registry', make: (seed) => `https://deploy:${password(seed + 3)}@registry.internal.co.th/simple/` },
      { name: 'websocket', make: (seed) => `wss://bot:${password(seed + 4)}@stream.example.org/feed` },
    ],
    negatives: [
      { name: 'user without a password', text: 'git clone https://somchai@github.com/somchai/notes.git' },
      { name: 'the word password', text: 'https://user:password@example.com/' },
      { name: 'template', text: 'https://${USER}:${TOKEN}@example.com/' },
      { name: 'a placeholder phrase', text: 'https://somchai:your-db-password@example.org/' },
      { name: 'an @handle in the path', text: 'https://medium.com/@somchai/how-to-cook-tom-yum-2026' },
      { name: 'a port and an e-mail in the query', text: 'https://example.com:8443/invite?to=somchai@example.co.th' },
      { name: 'ordinary URL', text: 'อ่านเพิ่มเติม https://www.example.co.th/articles/2026/05/thai-food' },
    ],
  },
];
