import { jwtOf, jsonPart, type KindExamples } from './examples.js';

export const jwtExamples: KindExamples[] = [
  {
    kind: 'jwt',
    positives: [
      { name: 'Bearer header', make: (seed) => `Authorization: Bearer ${jwtOf(seed)}` },
      { name: 'LINE v2.1 style token in JSON', make: (seed) => `{"access_token": "${jwtOf(seed + 1, { iss: 'line', aud: 'channel' })}"}` },
      { name: 'unsigned token', make: (seed) => `${jsonPart({ alg: 'none' })}.${jsonPart({ sub: `user${seed}`, admin: true })}.` },
    ],
    negatives: [
      { name: 'JWT-shaped text that does not decode', text: 'eyJxxxxxxxxxxxx.eyJyyyyyyyyyyyyyy.zzzzzz' },
      { name: 'header only', text: `${jsonPart({ alg: 'HS256', typ: 'JWT' })} is the header` },
      { name: 'payload is not an object', text: `${jsonPart({ alg: 'HS256' })}.${Buffer.from('"just a string"').toString('base64url')}.sig` },
    ],
  },
];
