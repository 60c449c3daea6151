/** Query parameters whose value may be a credential, matched case-insensitively on the name. */
const SECRET_PARAM = /key|token|secret|auth|password|signature/i;
/**
 * What marks a credential of ours: an API key's prefix (sk_live_…, sk_test_…), a webhook signing secret's (whsec_…),
 * or an API key's secret half without any prefix: 64 hexadecimal characters, which is also what a key pasted
 * without `sk_live_` (`{id}_{secret}`) contains. A partner's trace id that is a bare SHA-256 is replaced too: it
 * cannot be told apart from a secret.
 */
const SECRET_MARK = /sk_(?:live|test)_|whsec_|[0-9a-f]{64}/i;
/**
 * Percent-decoding layers undone before looking: a value encoded twice shows `%255f`, not `_`. Past this many
 * layers a text that still decodes further is treated as a secret: it cannot be shown to be harmless.
 */
const MAX_DECODE_ROUNDS = 4;

/**
 * Query parameters that carry what someone searched for (the dashboard's customer search `q`, the partner API's
 * customer `email` filter): personal data, kept out of the log by value.
 */
const SEARCH_PARAM = /^(q|email|search)$/i;

/** The token of a dashboard invitation URL: whoever holds it can choose the person's password. */
const INVITATION_TOKEN = /(\/invitations\/)[^/?#]+/gi;

/**
 * The URL as it may be logged: a partner who puts its key in the URL (`?api_key=`, `?q=` encoded once or more, or
 * in the path) must not find it in our logs, nor a customer their name in a search. A path segment or query value
 * that carries a credential after decoding, and the value of every credential-like or search parameter, are
 * replaced.
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt < 0 ? url : url.slice(0, queryAt))
    .split('/')
    .map((segment) => (looksLikeSecret(segment) ? 'sk_live_[redacted]' : segment))
    .join('/')
    .replace(INVITATION_TOKEN, '$1[redacted]');
  if (queryAt < 0) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      if (looksLikeSecret(name)) return '[redacted]';
      if (eq < 0) return pair;
      const plainName = decoded(name);
      return SECRET_PARAM.test(plainName) || SEARCH_PARAM.test(plainName) || looksLikeSecret(pair.slice(eq + 1))
        ? `${name}=[redacted]`
        : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** Whether text carries a credential of ours once every layer of percent-encoding is undone. */
export function looksLikeSecret(text: string): boolean {
  let current = text;
  for (let round = 0; round <= MAX_DECODE_ROUNDS; round++) {
    if (SECRET_MARK.test(current)) return true;
    const next = decodeOnce(current);
    if (next === current) return false;
    current = next;
  }
  return true;
}

function decoded(text: string): string {
  let current = text;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

/** One layer of percent-decoding (and `+` as a space, as forms send it), tolerant of malformed escapes. */
function decodeOnce(text: string): string {
  return text.replace(/\+/g, ' ').replace(/%([0-9a-f]{2})/gi, (escape, hex: string) => {
    const code = parseInt(hex, 16);
    return code < 0x80 ? String.fromCharCode(code) : escape;
  });
}
