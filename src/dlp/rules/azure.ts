import { shannonEntropy } from '../placeholder.js';
import { type CredentialRule, hasMixedClasses, lowerBefore, realRandom } from './rule.js';

// Azure storage account keys (64 random bytes: 86 base64 characters and `==`), beside the label that names them
// (`AccountKey=`, `"accountKey":`, `AZURE_STORAGE_KEY=`, "storage … key"): a bare 88-character base64 string has no
// anchor and is left to context detection. Connection strings: storage
// (`DefaultEndpointsProtocol=…;AccountName=…;AccountKey=…`) and Service Bus / Event Hubs
// (`Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…`). A key inside a connection string is reported as
// the connection string only.

function randomBase64(key: string): boolean {
  return hasMixedClasses(key) && realRandom(key) && shannonEntropy(key) >= 4.5;
}

function storageKeyLabel(before: string): boolean {
  const compact = before.replace(/[\s"'_:=-]/g, '');
  return (
    compact.endsWith('accountkey') ||
    /storage(?:account)?(?:access)?key/.test(compact) ||
    (before.includes('azure') && (before.includes('key') || before.includes('คีย์')))
  );
}

/** `…AccountName=<name>;AccountKey=` right before the key. */
function insideConnectionString(before: string): boolean {
  if (!before.endsWith(';accountkey=')) return false;
  const name = before.lastIndexOf('accountname=');
  return name >= 0 && /^[a-z0-9-]{1,64}$/.test(before.slice(name + 12, -12));
}

export const azureRules: readonly CredentialRule[] = [
  {
    kind: 'azure-storage-key',
    literals: ['accountkey', 'account_key', 'azure', 'storage'],
    pattern: /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])/g,
    accept: (match, text) => {
      const before = lowerBefore(match, text, 80);
      if (insideConnectionString(before)) return false; // the connection-string rule reports it
      return storageKeyLabel(before) && randomBase64(match[0].slice(0, 86));
    },
  },
  {
    kind: 'azure-connection-string',
    literals: ['accountname='],
    pattern: /AccountName=[A-Za-z0-9-]{1,64};AccountKey=[A-Za-z0-9+/]{86}==/gi,
    accept: (match) => randomBase64(match[0].slice(match[0].length - 88, -2)),
  },
  {
    kind: 'azure-connection-string',
    literals: ['sharedaccesskey='],
    pattern: /(?<![A-Za-z0-9])Endpoint=sb:\/\/[A-Za-z0-9.-]{1,120}\/;SharedAccessKeyName=[A-Za-z0-9._-]{1,64};SharedAccessKey=[A-Za-z0-9+/]{43}=/g,
    accept: (match) => randomBase64(match[0].slice(match[0].length - 44, -1)),
  },
];
