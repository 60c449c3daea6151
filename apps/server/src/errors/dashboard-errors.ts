import { DashboardErrorText, type SessionEndReason as SessionEndReasonSchema } from '@spa/contract/dashboard';
import type { z } from 'zod';
import { DomainError } from './domain-errors.js';

type SessionEndReason = z.infer<typeof SessionEndReasonSchema>;
type Text = (typeof DashboardErrorText)[keyof typeof DashboardErrorText];

/** A refusal of the dashboard API with one of its fixed texts (the contract's DashboardErrorText). */
export class DashboardError extends DomainError {
  constructor(
    readonly status: 401 | 403 | 404 | 409,
    readonly text: Text,
    /** Fields beside `error` the contract declares for this text (a 403's hint, a 401's reason). */
    readonly extra: Record<string, string> = {},
  ) {
    super(text);
  }
  body(): Record<string, unknown> {
    return { error: this.text, ...this.extra };
  }
}

export const notSignedIn = (reason?: SessionEndReason) =>
  new DashboardError(401, DashboardErrorText.NotSignedIn, reason ? { reason } : {});
export const invalidCredentials = () => new DashboardError(401, DashboardErrorText.InvalidCredentials);
export const invalidPassword = () => new DashboardError(401, DashboardErrorText.InvalidPassword);
export const dashboardForbidden = (hint?: string) =>
  new DashboardError(403, DashboardErrorText.Forbidden, hint ? { hint } : {});
export const recentSignInRequired = () => new DashboardError(403, DashboardErrorText.RecentSignInRequired);
/** 404 of a record that is not the caller's to see: the same answer whether it exists elsewhere or not at all. */
export const notFound = (
  text:
    | typeof DashboardErrorText.InvitationNotFound
    | typeof DashboardErrorText.UserNotFound
    | typeof DashboardErrorText.KeyNotFound
    | typeof DashboardErrorText.VenueNotFound
    | typeof DashboardErrorText.WebhookEndpointNotFound
    | typeof DashboardErrorText.WebhookEventNotFound
    | typeof DashboardErrorText.BookingNotFound
    | typeof DashboardErrorText.SessionNotFound,
) => new DashboardError(404, text);

/** A refusal told in a sentence of its own (an unsafe webhook URL, a booking whose status forbids the change). */
export class SentenceError extends DomainError {
  constructor(
    readonly status: 409 | 422,
    message: string,
    /** What kind of refusal, so the web app can say it in the reader's language (RefusalCode). */
    readonly code?: 'not_started' | 'status' | 'unsafe_url' | 'disabled' | 'other',
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { error: this.message, ...(this.code && { code: this.code }) };
  }
}
