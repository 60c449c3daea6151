import type { MessageKey } from '../i18n/en.js';
import { useT } from '../i18n/i18n.js';

/** A status word with its colour, in the reader's language; the word itself carries the meaning (colour only helps). */
export function Badge({ value }: { value: string }) {
  const t = useT();
  const key = `status.${value}` as MessageKey;
  const word = t(key);
  return (
    <span className={`badge badge-${value.replace(/[^a-z_]/g, '')}`} data-status={value}>
      {word === key ? value.replace(/_/g, ' ') : word}
    </span>
  );
}
