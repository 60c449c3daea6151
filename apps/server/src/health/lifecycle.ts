/**
 * Where the process is in its life: `starting` until the database is migrated, `ready` while it serves, and
 * `draining` once SIGTERM arrived. Readiness and the Connection header of the last responses follow it.
 */
export class Lifecycle {
  #state: 'starting' | 'ready' | 'draining';

  constructor(state: 'starting' | 'ready' = 'ready') {
    this.#state = state;
  }

  get state() {
    return this.#state;
  }

  markReady(): void {
    if (this.#state === 'starting') this.#state = 'ready';
  }

  beginDraining(): void {
    this.#state = 'draining';
  }
}
