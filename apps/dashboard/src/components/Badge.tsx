/** A status word with its colour; the word itself carries the meaning (colour is only a help). */
export function Badge({ value }: { value: string }) {
  return <span className={`badge badge-${value.replace(/[^a-z_]/g, '')}`}>{value.replace(/_/g, ' ')}</span>;
}
