import { Link } from 'wouter';
import { PublicFrame } from './PublicFrame.js';

export function NotFoundPage() {
  return (
    <PublicFrame title="Page not found">
      <p>There is no dashboard page at this address.</p>
      <p>
        <Link href="/">Go to the overview</Link>
      </p>
    </PublicFrame>
  );
}
