import { DashboardErrorText } from '@spa/contract/dashboard';
import { DomainError } from './domain-errors.js';

type Text = (typeof DashboardErrorText)[keyof typeof DashboardErrorText];

/** A refusal of the dashboard API with one of its fixed texts (the contract's DashboardErrorText). */
export class DashboardError extends DomainError {
  constructor(
    readonly status: 401 | 403 | 404 | 409,
    readonly text: Text,
  ) {
    super(text);
  }
  body(): Record<string, unknown> {
    return { error: this.text };
  }
}

export const notSignedIn = () => new DashboardError(401, DashboardErrorText.NotSignedIn);
export const invalidCredentials = () => new DashboardError(401, DashboardErrorText.InvalidCredentials);
export const invalidPassword = () => new DashboardError(401, DashboardErrorText.InvalidPassword);
export const dashboardForbidden = () => new DashboardError(403, DashboardErrorText.Forbidden);
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
    | typeof DashboardErrorText.BookingNotFound,
) => new DashboardError(404, text);

/** A refusal told in a sentence of its own (an unsafe webhook URL, a booking whose status forbids the change). */
export class SentenceError extends DomainError {
  constructor(
    readonly status: 409 | 422,
    message: string,
  ) {
    super(message);
  }
  body(): Record<string, unknown> {
    return { error: this.message };
  }
}
