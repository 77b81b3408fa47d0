import type { Draw } from './draw.js';
import type { PositiveKind } from './sample.js';

/** One published credential format of a vendor, as a generator of fresh values. */
export interface CredentialFormat {
  kind: PositiveKind;
  name: string;
  /** No vendor prefix: only a label beside the value (คีย์ลับ AWS:, password:) says it is a credential. */
  labelled?: boolean;
  make(draw: Draw): string;
}
