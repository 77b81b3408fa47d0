import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, randomBytes, type KindExamples } from './examples.js';

const storageKey = (seed: number) => randomBytes(64, seed).toString('base64');
const entra = `${alphabets.base62}_~.-`;
/** An Entra ID client secret of today: 3 characters, a digit, `Q~`, 34 characters. */
const clientSecret = (seed: number) => `${randomText(3, seed, entra)}${seed % 2 === 0 ? '8' : '7'}Q~${randomText(34, seed + 1, entra)}`;
const adoLegacy = (seed: number) => randomText(52, seed, 'abcdefghijklmnopqrstuvwxyz234567');
const ado84 = (seed: number) => `${randomText(52, seed)}JQQJ99${randomText(1, seed + 1)}B${randomText(16, seed + 2)}AZDO${randomText(4, seed + 3)}`;
const accountName = (seed: number) => `saeng${randomText(8, seed, 'abcdefghijklmnopqrstuvwxyz0123456789')}`;

export const azureExamples: KindExamples[] = [
  {
    kind: 'azure-storage-key',
    positives: [
      { name: 'AccountKey= alone', make: (seed) => `AccountKey=${storageKey(seed)}` },
      { name: 'environment variable', make: (seed) => `AZURE_STORAGE_KEY="${storageKey(seed + 1)}"` },
      { name: 'JSON field', make: (seed) => `{"accountName": "x", "accountKey": "${storageKey(seed + 2)}"}` },
      { name: 'Thai label', make: (seed) => `คีย์ของ Azure Storage คือ ${storageKey(seed + 3)}` },
    ],
    negatives: [
      { name: 'bare 88-character base64, no label', text: `checksum ${storageKey(4)}` },
      { name: 'placeholder', text: `AccountKey=${'x'.repeat(86)}==` },
      { name: 'the label in prose', text: 'Azure storage keys are 88 characters long; find AccountKey= in the portal' },
    ],
  },
  {
    kind: 'azure-connection-string',
    positives: [
      {
        name: 'storage connection string',
        make: (seed) =>
          `AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=${accountName(seed)};AccountKey=${storageKey(seed + 1)};EndpointSuffix=core.windows.net"`,
      },
      { name: 'storage, no protocol part', make: (seed) => `AccountName=${accountName(seed + 2)};AccountKey=${storageKey(seed + 3)}` },
      {
        name: 'Service Bus connection string',
        make: (seed) =>
          `Endpoint=sb://${accountName(seed + 4)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${randomBytes(32, seed + 5).toString('base64')}`,
      },
    ],
    negatives: [
      { name: 'development storage', text: 'AZURE_STORAGE_CONNECTION_STRING=UseDevelopmentStorage=true' },
      { name: 'placeholder key', text: 'DefaultEndpointsProtocol=https;AccountName=myaccount;AccountKey=<your-account-key>;EndpointSuffix=core.windows.net' },
      { name: 'SAS URL without a key', text: 'https://myaccount.blob.core.windows.net/container?sv=2024-01-01&sp=r' },
    ],
  },
  {
    kind: 'azure-client-secret',
    positives: [
      { name: 'environment variable', make: (seed) => `AZURE_CLIENT_SECRET=${clientSecret(seed)}` },
      { name: 'bare, end of a sentence', make: (seed) => `The new secret is ${clientSecret(seed + 2)}.` },
      { name: 'JSON (az ad sp create-for-rbac)', make: (seed) => `{"appId": "x", "password": "${clientSecret(seed + 4)}", "tenant": "y"}` },
      { name: 'Thai sentence', make: (seed) => `ซีเคร็ตใหม่ของแอปคือ ${clientSecret(seed + 6)} ครับ` },
    ],
    negatives: [
      { name: 'the marker in prose', text: 'Entra secrets carry Q~ after four characters, e.g. abc8Q~ then 34 more.' },
      { name: 'placeholder', text: `AZURE_CLIENT_SECRET=abc8Q~${'x'.repeat(34)}` },
      { name: 'too short', text: `abc8Q~${randomText(20, 31)}` },
    ],
  },
  {
    kind: 'azure-devops-pat',
    positives: [
      { name: 'legacy, AZURE_DEVOPS_EXT_PAT', make: (seed) => `export AZURE_DEVOPS_EXT_PAT=${adoLegacy(seed)}` },
      { name: 'legacy, ADO_PAT in YAML', make: (seed) => `variables:\n  ADO_PAT: ${adoLegacy(seed + 1)}` },
      { name: 'legacy, Thai with dev.azure.com', make: (seed) => `ใช้ PAT นี้กับ dev.azure.com ได้เลย: ${adoLegacy(seed + 2)}` },
      { name: '84-character format, bare', make: (seed) => ado84(seed + 3) },
      { name: '84-character format, env', make: (seed) => `AZURE_DEVOPS_PAT=${ado84(seed + 4)}` },
    ],
    negatives: [
      { name: 'legacy shape without an Azure DevOps clue', text: `object ${adoLegacy(41)} stored` },
      { name: 'legacy placeholder', text: `ADO_PAT=${'a'.repeat(52)}` },
      { name: '84 characters without AZDO', text: `${randomText(52, 42)}JQQJ99aB${randomText(16, 43)}ABCD${randomText(4, 44)}` },
      { name: 'PAT label, documentation value', text: 'ADO_PAT=your-personal-access-token' },
    ],
  },
];
