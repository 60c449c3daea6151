import type { DatabaseHandle } from '../db/connect.js';
import type { NotificationListener } from '../db/notifications.js';
import { AVAILABILITY_CHANGES_CHANNEL } from '../migrations/0010_availability_changes.js';

/** What a change notice names: some venues, or every venue (`*`: a TRUNCATE, or notices that may have been missed). */
export type VenueChange = readonly string[] | '*';

/**
 * The venue desk's live updates, fed by the schedule changes the availability cache follows (migrations 0010 and
 * 0016): every commit that places, moves or releases a booking's holds names its venues, read from the change log
 * (on PGlite, notified) in every process. Each open desk page subscribes through its event stream; a reconnection of the listener tells
 * everyone `*`, since notices may have been missed while it was down. `endStreams` closes every open stream at
 * once when the process begins to drain, so a page that stays open never holds a shutdown back.
 */
export class DeskFeed {
  private readonly subscribers = new Set<(change: VenueChange) => void>();
  private readonly streams = new Set<() => void>();
  private listener: NotificationListener | undefined;

  static async start(handle: Pick<DatabaseHandle, 'listen'>): Promise<DeskFeed> {
    const feed = new DeskFeed();
    feed.listener = await handle.listen(AVAILABILITY_CHANGES_CHANNEL, {
      onNotify: (payload) => feed.publish(payload === '*' ? '*' : [payload]),
      onLive: (live) => {
        if (live) feed.publish('*');
      },
    });
    return feed;
  }

  /** Told of every change from now on; returns the unsubscribe. */
  subscribe(subscriber: (change: VenueChange) => void): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /** Registers an open stream's end, so endStreams can close it; returns the unregister. */
  track(end: () => void): () => void {
    this.streams.add(end);
    return () => this.streams.delete(end);
  }

  /** Ends every open stream (their pages reconnect to another process, or after the restart). */
  endStreams(): void {
    for (const end of [...this.streams]) end();
  }

  async close(): Promise<void> {
    this.endStreams();
    await this.listener?.close();
  }

  private publish(change: VenueChange): void {
    for (const subscriber of this.subscribers) subscriber(change);
  }
}
