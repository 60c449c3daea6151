import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** Why a webhook URL is refused, in the operator's words. */
export class UnsafeWebhookUrlError extends Error {}

/** Where a delivery connects: the address that was checked, so a second DNS answer cannot redirect it. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

const MAX_URL_LENGTH = 2048;

/** Said with every refusal that a developer's local receiver meets, so the way out is named where it is needed. */
export const LOCAL_RECEIVER_HINT =
  ' (a receiver on this machine, in development only: start the server and the CLI with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)';

/** Parses a webhook URL and checks its form: https (http too with the dev flag), no credentials, sane length. */
export function parseWebhookUrl(text: string, allowPrivateNetworks: boolean): URL {
  if (text.length > MAX_URL_LENGTH)
    throw new UnsafeWebhookUrlError(`The URL must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeWebhookUrlError(`${text} is not a URL`);
  }
  const allowed = allowPrivateNetworks ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol))
    throw new UnsafeWebhookUrlError(
      `The URL must use https, not ${url.protocol.replace(':', '')}${url.protocol === 'http:' ? LOCAL_RECEIVER_HINT : ''}`,
    );
  if (url.username || url.password) throw new UnsafeWebhookUrlError('The URL must not carry a user name or password');
  return url;
}

/**
 * Resolves the URL's host and refuses it when any of its addresses is not public unicast: loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, reserved; an IPv6 form that embeds an IPv4 address
 * (compatible, mapped, translated, NAT64, 6to4, Teredo) is judged as the address it embeds. ipaddr.js knows the
 * ranges.
 */
export async function checkWebhookTarget(url: URL, allowPrivateNetworks: boolean): Promise<CheckedTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      throw new UnsafeWebhookUrlError(`The host ${host} does not resolve`, { cause: error });
    }
  }
  if (addresses.length === 0) throw new UnsafeWebhookUrlError(`The host ${host} does not resolve`);
  if (!allowPrivateNetworks) {
    const unsafe = addresses.find((a) => !isPublicAddress(a.address));
    if (unsafe)
      throw new UnsafeWebhookUrlError(
        `The host ${host} resolves to ${unsafe.address}, ${describeRange(rangeOf(unsafe.address))}; webhooks go only to public addresses${LOCAL_RECEIVER_HINT}`,
      );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** ipaddr.js's range names in words, with their article: "an unspecified address", "a link-local address". */
export function describeRange(range: string): string {
  const words = range
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/^link local$/, 'link-local')
    .replace(/^unique local$/, 'unique-local')
    .replace(/^carrier grade nat$/, 'carrier-grade NAT');
  return `${/^(?!uni)[aeiou]/.test(words) ? 'an' : 'a'} ${words} address`;
}

export function isPublicAddress(text: string): boolean {
  return rangeOf(text) === 'unicast';
}

/**
 * ipaddr.js's range name, of the IPv4 address an IPv6 address carries when it carries one: the URL parser
 * rewrites `[::127.0.0.1]` to `[::7f00:1]`, which ipaddr.js calls plain unicast, so every embedding form is
 * unwrapped here before the range is asked.
 */
function rangeOf(text: string): string {
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv4') return parsed.range();
  const v6 = parsed as ipaddr.IPv6;
  if (v6.match(NAT64_LOCAL_USE)) return 'reserved';
  const embedded = embeddedIPv4(v6);
  return embedded ? embedded.range() : v6.range();
}

/** 64:ff9b:1::/48 (RFC 8215) translates for a local network only: never a public receiver. */
const NAT64_LOCAL_USE = ipaddr.parseCIDR('64:ff9b:1::/48');

/**
 * The IPv4 address inside an IPv6 one, for the forms that route to it: IPv4-compatible (::a.b.c.d, except :: and
 * ::1), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4
 * (2002:aabb:ccdd::) and Teredo (2001:0:…, the client's address inverted in the last 32 bits).
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const p = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const zeroUpTo = (n: number) => p.slice(0, n).every((part) => part === 0);
  if (zeroUpTo(6) && (p[6] !== 0 || p[7]! > 1)) return v4(p[6]!, p[7]!);
  if (zeroUpTo(5) && p[5] === 0xffff) return v4(p[6]!, p[7]!);
  if (zeroUpTo(4) && p[4] === 0xffff && p[5] === 0) return v4(p[6]!, p[7]!);
  if (p[0] === 0x64 && p[1] === 0xff9b && p.slice(2, 6).every((part) => part === 0)) return v4(p[6]!, p[7]!);
  if (p[0] === 0x2002) return v4(p[1]!, p[2]!);
  if (p[0] === 0x2001 && p[1] === 0) return v4(p[6]! ^ 0xffff, p[7]! ^ 0xffff);
  return undefined;
}
