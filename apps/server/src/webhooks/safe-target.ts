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
    throw new UnsafeWebhookUrlError(`The URL must use https, not ${url.protocol.replace(':', '')}`);
  if (url.username || url.password) throw new UnsafeWebhookUrlError('The URL must not carry a user name or password');
  return url;
}

/**
 * Resolves the URL's host and refuses it when any of its addresses is not public unicast: loopback, private,
 * link-local, unique-local, carrier-grade NAT, multicast, reserved, and IPv6 forms that embed an IPv4 address
 * (mapped, 6to4, NAT64, Teredo) unless the embedded address is itself public. ipaddr.js knows the ranges.
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
        `The host ${host} resolves to ${unsafe.address}, a ${rangeOf(unsafe.address)} address; webhooks go only to public addresses`,
      );
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export function isPublicAddress(text: string): boolean {
  return rangeOf(text) === 'unicast';
}

/** ipaddr.js's range name; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries. */
function rangeOf(text: string): string {
  const parsed = ipaddr.parse(text);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}
