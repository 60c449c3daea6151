import { describe, expect, it } from 'vitest';
import { checkWebhookTarget, isPublicAddress, parseWebhookUrl } from '../../src/webhooks/safe-target.js';

/**
 * Every IPv6 spelling of a non-public IPv4 address is refused, judged by the IPv4 address it carries; the same
 * forms carrying a public address are as public as that address. The URLs go through the URL parser first, as
 * registration does: it rewrites `[::127.0.0.1]` to `[::7f00:1]`, the form the filter must still see through.
 */
describe('the webhook URL filter across IPv6 forms', () => {
  it.each([
    // IPv4-compatible (::/96, deprecated but routable by some stacks)
    ['https://[::127.0.0.1]/', false],
    ['https://[::a9fe:a9fe]/', false],
    ['https://[::10.0.0.1]/', false],
    ['https://[::8.8.8.8]/', true],
    // IPv4-mapped (::ffff:0:0/96) and IPv4-translated (::ffff:0:0:0/96)
    ['https://[::ffff:127.0.0.1]/', false],
    ['https://[::ffff:a9fe:a9fe]/', false],
    ['https://[::ffff:0:7f00:1]/', false],
    ['https://[::ffff:8.8.8.8]/', true],
    // NAT64, well-known prefix (64:ff9b::/96) and the local-use one (64:ff9b:1::/48)
    ['https://[64:ff9b::127.0.0.1]/', false],
    ['https://[64:ff9b::169.254.169.254]/', false],
    ['https://[64:ff9b::192.168.1.1]/', false],
    ['https://[64:ff9b::8.8.8.8]/', true],
    ['https://[64:ff9b:1::8.8.8.8]/', false],
    // 6to4 (2002::/16): the IPv4 address is bits 16 to 48
    ['https://[2002:7f00:1::1]/', false],
    ['https://[2002:a9fe:a9fe::]/', false],
    ['https://[2002:c0a8:0101::1]/', false],
    ['https://[2002:0808:0808::1]/', true],
    // Teredo (2001::/32): the client's address is the last 32 bits inverted, the server's bits 32 to 64
    ['https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', false],
    ['https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', true],
    // Plain IPv6 and IPv4
    ['https://[::1]/', false],
    ['https://[::]/', false],
    ['https://[fe80::1]/', false],
    ['https://[fd00::1]/', false],
    ['https://[2606:4700:4700::1111]/', true],
    ['https://127.0.0.1/', false],
    ['https://8.8.8.8/', true],
  ])('%s is public: %s', async (text, expected) => {
    const url = parseWebhookUrl(text, false);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    expect(isPublicAddress(host)).toBe(expected);
    if (expected) await expect(checkWebhookTarget(url, false)).resolves.toMatchObject({ address: host });
    else
      await expect(checkWebhookTarget(url, false)).rejects.toThrow(
        new RegExp(
          `^The host ${host.replace(/[.]/g, '\\.')} resolves to ${host.replace(/[.]/g, '\\.')}, an? [\\w -]+ address; webhooks go only to public addresses \\(a receiver on this machine, in development only: start the server and the CLI with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true\\)$`,
        ),
      );
  });
});
