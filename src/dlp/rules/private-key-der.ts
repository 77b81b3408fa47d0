import { decodeBase64 } from './rule.js';

// Is this base64 the DER encoding of a private key? Read from the first bytes of its ASN.1 structure:
//   SEQUENCE { INTEGER 0, INTEGER … }             PKCS#1 RSA (and DSA) private key
//   SEQUENCE { INTEGER 0|1, SEQUENCE algorithm … } PKCS#8 private key (v1 and v2 / OneAsymmetricKey)
//   SEQUENCE { INTEGER 1, OCTET STRING … }         SEC1 EC private key
//   SEQUENCE { INTEGER 3, SEQUENCE contentInfo }   PKCS#12 key store
//   SEQUENCE { SEQUENCE { OID pkcs5/pkcs12 PBE } } PKCS#8 encrypted private key
// A certificate (SEQUENCE { SEQUENCE { [0] version … } }), a public key (SEQUENCE { SEQUENCE { OID rsa/ec … },
// BIT STRING }), a PKCS#1 public key (SEQUENCE { INTEGER modulus … }) or a CSR start otherwise and pass.

const sequence = 0x30;
const integer = 0x02;
const octetString = 0x04;
const objectIdentifier = 0x06;
// 1.2.840.113549.1.5 (PKCS#5 PBES1/PBES2) and 1.2.840.113549.1.12.1 (PKCS#12 PBE), DER-encoded.
const pkcs5 = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05];
const pkcs12Pbe = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x0c, 0x01];

/** Offset of a DER value's contents after its tag at `at`, or -1 for a length form we do not expect. */
function contentsStart(bytes: Buffer, at: number): number {
  const length = bytes[at + 1];
  if (length === undefined) return -1;
  if (length < 0x80) return at + 2;
  if (length >= 0x81 && length <= 0x83) return at + 2 + (length - 0x80);
  return -1;
}

function startsWithBytes(bytes: Buffer, at: number, expected: readonly number[]): boolean {
  return expected.every((byte, index) => bytes[at + index] === byte);
}

function isEncryptedPrivateKey(bytes: Buffer, algorithm: number): boolean {
  const oid = contentsStart(bytes, algorithm);
  if (oid < 0 || bytes[oid] !== objectIdentifier) return false;
  return startsWithBytes(bytes, oid + 2, pkcs5) || startsWithBytes(bytes, oid + 2, pkcs12Pbe);
}

export function isPrivateKeyDer(base64: string): boolean {
  const bytes = decodeBase64(base64.slice(0, 96));
  if (bytes[0] !== sequence) return false;
  const first = contentsStart(bytes, 0);
  if (first < 0) return false;
  if (bytes[first] === sequence) return isEncryptedPrivateKey(bytes, first);
  if (bytes[first] !== integer || bytes[first + 1] !== 0x01) return false;
  const version = bytes[first + 2];
  const next = bytes[first + 3];
  if (version === 0) return next === integer || next === sequence;
  if (version === 1) return next === octetString || next === sequence;
  return version === 3 && next === sequence;
}
