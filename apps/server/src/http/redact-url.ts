/** Query parameters whose value may be a credential, matched case-insensitively on the name. */
const SECRET_PARAM = /key|token|secret|auth|password|signature/i;
/** A key in any position: path segment, query value, fragment (sk_live_ then id and secret). */
const KEY_IN_TEXT = /sk(?:_|%5f)live(?:_|%5f)[A-Za-z0-9_%-]*/gi;

/** The token of a dashboard invitation URL: whoever holds it can choose the person's password. */
const INVITATION_TOKEN = /(\/invitations\/)[^/?#]+/gi;

/**
 * The URL as it may be logged: a partner who puts its key in the URL (`?api_key=`, or in the path) must not
 * find it in our logs. Both the key pattern anywhere and the values of credential-like parameters are replaced.
 */
export function redactUrl(url: string): string {
  const masked = url.replace(KEY_IN_TEXT, 'sk_live_[redacted]').replace(INVITATION_TOKEN, '$1[redacted]');
  const queryAt = masked.indexOf('?');
  if (queryAt < 0) return masked;
  const query = masked
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return eq >= 0 && SECRET_PARAM.test(safeDecode(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${masked.slice(0, queryAt)}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
