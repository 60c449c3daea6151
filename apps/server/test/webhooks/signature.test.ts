import { randomUUID } from 'node:crypto';
import { verifyWebhook, WebhookVerificationError } from '@spa/sdk';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../src/webhooks/signature.js';

const booking = {
  id: '0b7c8a46-2f0e-4a53-9a53-0c1f0c2b8e11',
  booking_number: 10001,
  status: 'confirmed',
  venue_id: '1b7c8a46-2f0e-4a53-9a53-0c1f0c2b8e11',
  treatment_id: '2b7c8a46-2f0e-4a53-9a53-0c1f0c2b8e11',
  variant_id: '3b7c8a46-2f0e-4a53-9a53-0c1f0c2b8e11',
  customer_id: '4b7c8a46-2f0e-4a53-9a53-0c1f0c2b8e11',
  start_at: '2026-12-01T09:00:00Z',
  end_at: '2026-12-01T10:00:00Z',
  guest_count: 1,
  therapists_accepted: 1,
  notes: null,
  external_reference: 'hotel.ROOM-412',
  external_id: 'pms-1',
  client_type: 'hotel',
  total_price: { amount: 90, currency: 'EUR' },
  payment_method: 'partner_billed',
  payment_status: 'paid',
  created_at: '2026-11-22T08:00:00Z',
  updated_at: '2026-11-22T08:05:00Z',
  cancellation: null,
  livemode: true,
};
const body = JSON.stringify({
  type: 'booking.confirmed',
  timestamp: booking.updated_at,
  livemode: true,
  data: { booking },
});

/** The three headers as the server sends them, signed now (or at `seconds`). */
function signed(secrets: string[], payload = body, seconds = Math.floor(Date.now() / 1000)) {
  const id = randomUUID();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(seconds),
    'webhook-signature': signWebhook(secrets, id, seconds, payload),
  };
}

describe('webhook signatures (Standard Webhooks), checked by the standardwebhooks library and by the SDK', () => {
  const secret = generateWebhookSecret();

  it('makes secrets of whsec_ and 32 random bytes in base64', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('signs so that standardwebhooks verifies the body unchanged, and so does the SDK', () => {
    const headers = signed([secret]);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhook(body, headers, secret)).toEqual({
      ok: true,
      id: headers['webhook-id'],
      event: JSON.parse(body),
    });
  });

  it('SDK verifies what standardwebhooks signs (the other direction)', () => {
    const id = `msg_${randomUUID()}`;
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    const headers = new Headers({
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signature,
    });
    const result = verifyWebhook(Buffer.from(body), headers, secret);
    expect(result.ok && result.event.type).toBe('booking.confirmed');
  });

  it('refuses a tampered body, a wrong secret and a stale or future timestamp, in both verifiers', () => {
    const headers = signed([secret]);
    const tampered = body.replace('"guest_count":1', '"guest_count":2');
    const wrong = generateWebhookSecret();
    const stale = signed([secret], body, Math.floor(Date.now() / 1000) - 600);
    const future = signed([secret], body, Math.floor(Date.now() / 1000) + 600);
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(wrong).verify(body, headers)).toThrow('No matching signature found');
    expect(() => new Webhook(secret).verify(body, stale)).toThrow('Message timestamp too old');
    expect(() => new Webhook(secret).verify(body, future)).toThrow('Message timestamp too new');

    const code = (result: ReturnType<typeof verifyWebhook>) => (result.ok ? 'ok' : result.error.code);
    expect(code(verifyWebhook(tampered, headers, secret))).toBe('invalid_signature');
    expect(code(verifyWebhook(body, headers, wrong))).toBe('invalid_signature');
    expect(code(verifyWebhook(body, stale, secret))).toBe('stale_timestamp');
    expect(code(verifyWebhook(body, future, secret))).toBe('stale_timestamp');
    expect(code(verifyWebhook(body, { 'webhook-id': 'x' }, secret))).toBe('missing_headers');
    const failure = verifyWebhook(body, stale, secret);
    expect(!failure.ok && failure.error).toBeInstanceOf(WebhookVerificationError);
  });

  it('refuses a correctly signed body that is not a known event, with its own code', () => {
    const other = JSON.stringify({ type: 'booking.updated', timestamp: booking.updated_at, data: { booking } });
    const result = verifyWebhook(other, signed([secret], other), secret);
    expect(result.ok ? 'ok' : result.error.code).toBe('invalid_payload');
  });

  it('carries two signatures while a rotated secret overlaps: either secret verifies', () => {
    const next = generateWebhookSecret();
    const headers = signed([next, secret]);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    for (const s of [secret, next]) {
      expect(new Webhook(s).verify(body, headers)).toEqual(JSON.parse(body));
      expect(verifyWebhook(body, headers, s).ok).toBe(true);
    }
    expect(verifyWebhook(body, headers, generateWebhookSecret()).ok).toBe(false);
  });
});
