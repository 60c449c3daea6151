/**
 * An e-mail address that a stacked card on a phone, with about 200 px for it, wraps before its `@` rather than
 * inside a word: `claire.martin` / `@example.com`, not `claire.martin@example.c` / `om` (styles.css
 * `.email-domain`). Meant for a short domain, such as customers': a long one (`ops@maisons-lumiere.example`)
 * wraps well enough at its hyphen, and would only be split once more. Not a <wbr>: Chromium breaks at one even
 * in a wide table under `nowrap`, and a hidden one splits the cell's accessible name in two.
 */
export function EmailAddress({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <span translate="no">{address}</span>;
  // An address is a name: translate="no" keeps translation tools (and the French pages' check) off its words.
  return (
    <span translate="no">
      {address.slice(0, at)}
      <span className="email-domain">{address.slice(at)}</span>
    </span>
  );
}
