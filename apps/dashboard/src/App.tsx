import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, useEffect } from 'react';
import { Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { ApiError, onSessionEnded } from './api/result.js';
import { hadSession, MeProvider, SESSION_KEY, useSessionQuery } from './api/session.js';
import { ErrorNotice } from './components/ErrorNotice.js';
import { Loading } from './components/States.js';
import { ToastProvider } from './components/Toasts.js';
import { I18nProvider } from './i18n/i18n.js';
import { useMode } from './lib/mode.js';
import { AcceptInvitationPage } from './pages/AcceptInvitation.js';
import { AccountPage } from './pages/Account.js';
import { ApiKeyPage } from './pages/ApiKey.js';
import { AuditPage } from './pages/Audit.js';
import { BookingPage } from './pages/Booking.js';
import { BookingsPage } from './pages/Bookings.js';
import { DeliveriesPage } from './pages/Deliveries.js';
import { DeskPage } from './pages/Desk.js';
import { NotFoundPage } from './pages/NotFound.js';
import { OverviewPage } from './pages/Overview.js';
import { PeoplePage } from './pages/People.js';
import { SignInPage } from './pages/SignIn.js';
import { WebhookEndpointPage } from './pages/WebhookEndpoint.js';
import { WebhooksPage } from './pages/Webhooks.js';

const queryClient = new QueryClient({
  queryCache: new QueryCache(),
  defaultOptions: {
    queries: {
      // A refusal will not change by asking again; a network blip may.
      retry: (count, error) => !(error instanceof ApiError && error.status > 0 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** A page that needs a session: without one, to sign-in, remembering where the person was going. */
function RequireSession({ page: Page }: { page: ComponentType }) {
  const session = useSessionQuery();
  const [location] = useLocation();
  const search = useSearch();
  // A switch of mode mounts the page afresh, so every query it makes is asked again in the new mode.
  const mode = useMode();
  if (session.isPending) return <Loading what="your session" />;
  if (session.isError) return <ErrorNotice error={session.error} title="Could not reach the dashboard." />;
  if (!session.data) {
    const next = encodeURIComponent(location + (search ? `?${search}` : ''));
    // Why the session ended, when the server said (removed, password changed, signed out everywhere).
    const ended = endedReason ? `&ended=${endedReason}` : hadSession() ? '&expired=1' : '';
    return <Redirect to={`/sign-in?next=${next}${ended}`} replace />;
  }
  return (
    <MeProvider me={session.data.data}>
      <Page key={mode} />
    </MeProvider>
  );
}

/** Why the last session ended, as the server's 401 said; read once by the redirect to sign-in. */
let endedReason: string | undefined;

/** When any call says the session is gone, the session is asked again, and RequireSession sends to sign-in. */
function SessionWatch() {
  useEffect(
    () =>
      onSessionEnded((reason) => {
        endedReason = reason;
        queryClient.setQueryData(SESSION_KEY, null);
      }),
    [],
  );
  return null;
}

const signedIn: [string, ComponentType][] = [
  ['/', OverviewPage],
  ['/key', ApiKeyPage],
  ['/webhooks', WebhooksPage],
  ['/webhooks/deliveries', DeliveriesPage],
  ['/webhooks/:id', WebhookEndpointPage],
  ['/bookings', BookingsPage],
  ['/bookings/:id', BookingPage],
  ['/desk', DeskPage],
  ['/people', PeoplePage],
  ['/audit', AuditPage],
  ['/account', AccountPage],
];

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <ToastProvider>
          <SessionWatch />
          <Router base="/dashboard">
            <Switch>
              <Route path="/sign-in" component={SignInPage} />
              <Route path="/invitations/:token" component={AcceptInvitationPage} />
              {signedIn.map(([path, page]) => (
                <Route key={path} path={path}>
                  <RequireSession page={page} />
                </Route>
              ))}
              <Route component={NotFoundPage} />
            </Switch>
          </Router>
        </ToastProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
