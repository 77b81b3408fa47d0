import { shannonEntropy } from '../placeholder.js';
import { type CredentialRule, hasMixedClasses, lowerBefore, realRandom } from './rule.js';

// Azure storage account keys (64 random bytes: 86 base64 characters and `==`), beside the label that names them
// (`AccountKey=`, `"accountKey":`, `AZURE_STORAGE_KEY=`, "storage … key"): a bare 88-character base64 string has no
// anchor and is left to context detection. Connection strings: storage
// (`DefaultEndpointsProtocol=…;AccountName=…;AccountKey=…`) and Service Bus / Event Hubs
// (`Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…`). A key inside a connection string is reported as
// the connection string only.
// Entra ID (Azure AD) client secrets of today: 40 characters of `[A-Za-z0-9_~.-]`, three, a digit, then `Q~`
// (Microsoft security-utilities AadClientAppSecret, gitleaks azure-ad-client-secret; 37–40 accepted). Older
// 32–34-character secrets have no marker: context detection, beside an Azure/Entra label.
// Azure DevOps PATs: the 84-character format of 2024 is a common annotated security key (52 random base62
// characters, `JQQJ9` and its variant letters, then `AZDO` at 76); the legacy 52 lower-case base32 characters
// only beside an Azure DevOps clue (dev.azure.com, visualstudio.com, `AZURE_DEVOPS`, `ADO_PAT`, a `PAT` label).

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

const adoClue =
  /dev\.azure\.com|visualstudio\.com|azure[ _-]?devops|azdo|(?<![a-z])ado[ _-]?(?:pat|token)|(?<![a-z])pat(?![a-z])|personal[ _-]?access[ _-]?token|system[._]?accesstoken/;

/** An Azure DevOps clue within 120 characters before the token, or its host right after (`https://x:<pat>@dev.azure.com`). */
function adoContext(match: RegExpExecArray, text: string): boolean {
  const after = text.slice(match.index + match[0].length, match.index + match[0].length + 40).toLowerCase();
  return adoClue.test(lowerBefore(match, text, 120)) || /^@(?:dev\.azure\.com|[a-z0-9-]{1,64}\.visualstudio\.com)/.test(after);
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
  {
    kind: 'azure-client-secret',
    literals: ['q~'],
    // A full stop right after the secret ends a sentence; one inside it is part of it.
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])(?!\.[A-Za-z0-9_~-])/g,
    accept: (match) => {
      const secret = match[0].replace(/\.$/, '');
      const random = secret.slice(0, 3) + secret.slice(6);
      return secret.length >= 37 && /[A-Za-z]/.test(random) && /\d/.test(random) && realRandom(random);
    },
  },
  {
    kind: 'azure-devops-pat',
    literals: ['jqqj9'],
    pattern: /(?<![A-Za-z0-9])[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}AZDO[A-Za-z0-9]{4}(?![A-Za-z0-9])/g,
    accept: (match) => realRandom(match[0].slice(0, 52)),
  },
  {
    kind: 'azure-devops-pat',
    literals: ['dev.azure.com', 'visualstudio.com', 'azure', 'azdo', 'ado', 'pat', 'personal', 'accesstoken'],
    // A clue within 120 characters before the token, or the host right after its 52 characters.
    near: { clues: [new RegExp(adoClue.source, 'gi')], reach: 200 },
    pattern: /(?<![A-Za-z0-9])[a-z2-7]{52}(?![A-Za-z0-9])/g,
    accept: (match, text) => /\d/.test(match[0]) && realRandom(match[0]) && shannonEntropy(match[0]) >= 4 && adoContext(match, text),
  },
];
