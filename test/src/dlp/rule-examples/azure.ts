import { randomText } from '../../../support/fake-tokens.js';
import { randomBytes, type KindExamples } from './examples.js';

const storageKey = (seed: number) => randomBytes(64, seed).toString('base64');
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
];
