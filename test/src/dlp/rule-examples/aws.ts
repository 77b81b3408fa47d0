import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, type KindExamples } from './examples.js';

const secret = (seed: number) => randomText(40, seed * 7 + 3, alphabets.base64);

export const awsExamples: KindExamples[] = [
  {
    kind: 'aws-access-key',
    positives: [
      { name: 'long-term key id', make: (seed) => `AWS_ACCESS_KEY_ID=AKIA${randomText(16, seed, alphabets.base32)}` },
      { name: 'temporary key id', make: (seed) => `ASIA${randomText(16, seed + 100, alphabets.base32)}` },
      { name: 'role id in JSON', make: (seed) => `{"RoleId": "AROA${randomText(16, seed + 200, alphabets.base32)}"}` },
    ],
    negatives: [
      { name: 'AWS documentation key id', text: 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE' },
      { name: 'all-X placeholder', text: 'AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX' },
      { name: 'one character short', text: `AKIA${randomText(15, 5, alphabets.base32)} is too short` },
      { name: 'lower case', text: `akia${randomText(16, 6, alphabets.base32).toLowerCase()}` },
      { name: 'DNA sequence', text: 'primer ACCAGTTGACGTACGTAGCT and AGCTAGCTAGGATCCAGTAC' },
    ],
  },
  {
    kind: 'aws-secret-key',
    positives: [
      { name: 'credentials file', make: (seed) => `aws_secret_access_key = ${secret(seed)}` },
      { name: 'environment variable', make: (seed) => `AWS_SECRET_ACCESS_KEY="${secret(seed + 1)}"` },
      { name: 'Thai label', make: (seed) => `คีย์ลับ AWS: ${secret(seed + 2)}` },
      { name: 'English prose label', make: (seed) => `your AWS secret key is ${secret(seed + 3)}` },
    ],
    negatives: [
      { name: 'AWS documentation secret', text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      { name: 'git SHA beside an aws secret label', text: 'the aws secret rotation landed in 9fceb02d0ae598e95dc970b74767f19372d61af8' },
      { name: 'random 40 characters without a label', text: `request id ${randomText(40, 93)}` },
      { name: 'a labelled SHA-1 in hex', text: 'aws_secret_access_key rotated, commit 9fceb02d0ae598e95dc970b74767f19372d61af8' },
      { name: 'Thai order code beside AWS', text: `ใช้ AWS ภูมิภาคสิงคโปร์ รหัสคำสั่งซื้อ ${randomText(40, 95)}` },
    ],
  },
];
