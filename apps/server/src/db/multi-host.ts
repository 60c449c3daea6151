import pg from 'pg';

/**
 * A DATABASE_URL that names several hosts, as libpq reads it:
 * `postgres://user@10.0.0.1:5432,10.0.0.2:5432/spa?target_session_attrs=read-write`. node-postgres (8.x) reads
 * only one host and knows no target_session_attrs, so a high-availability pair (Patroni's leader and its standby)
 * is handled here: each new connection goes to the host last found writable, and when that one cannot be reached
 * or has become a standby, every host is asked at once (`select pg_is_in_recovery()`) and the leader among them is
 * used. Until one answers as leader, connecting fails with class 08 (connection exception), which the server
 * answers as 503 with Retry-After. A failover is noticed without polling: the old leader's connections all end
 * when its PostgreSQL stops, and the next connection looks again.
 */
export interface HostPort {
  host: string;
  port: number;
}

export interface ParsedHosts {
  hosts: HostPort[];
  /** target_session_attrs=read-write (or primary): only a host out of recovery will do. */
  readWrite: boolean;
  /** The URL with only the first host and without target_session_attrs (what pg reads). */
  singleHostUrl: string;
}

const AUTHORITY = /^(postgres(?:ql)?:\/\/)([^/?#]*@)?([^/?#]*)(.*)$/;

/** The hosts of a URL (one for a plain URL), or undefined for a string that is no postgres:// URL. */
export function parseHosts(url: string): ParsedHosts | undefined {
  const match = AUTHORITY.exec(url);
  if (!match) return undefined;
  const [, scheme, userinfo = '', hostList, rest = ''] = match;
  const hosts = hostList!.split(',').map((entry): HostPort => {
    // A bracketed IPv6 address keeps its colons.
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) return { host: bracketed[1]!, port: Number(bracketed[2] ?? 5432) };
    const colon = entry.lastIndexOf(':');
    return colon < 0
      ? { host: entry || 'localhost', port: 5432 }
      : { host: entry.slice(0, colon), port: Number(entry.slice(colon + 1)) };
  });
  const [path, query = ''] = splitOnce(rest, '?');
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  params.delete('target_session_attrs');
  const search = params.toString();
  const first = hosts[0]!;
  const host = first.host.includes(':') ? `[${first.host}]` : first.host;
  return {
    hosts,
    readWrite: attrs === 'read-write' || attrs === 'primary',
    singleHostUrl: `${scheme}${userinfo}${host}:${first.port}${path}${search ? `?${search}` : ''}`,
  };
}

function splitOnce(text: string, separator: string): [string, string?] {
  const at = text.indexOf(separator);
  return at < 0 ? [text] : [text.slice(0, at), text.slice(at + 1)];
}

/** pg reads the host and port from these fields when it connects (the connection string set them at construction). */
function aim(client: pg.Client, target: HostPort): void {
  Object.assign(client as unknown as HostPort, { host: target.host, port: target.port });
}

type ClientClass = new (config?: pg.ClientConfig) => pg.Client;

export interface HostAwareClient {
  /** The pg client class to construct (the pool's `Client`), and the connection string to give it. */
  Client: ClientClass;
  connectionString: string;
}

/**
 * A client class for `url`: `Base` itself for a single host without read-write, otherwise a subclass that connects
 * to the current leader as described above. Each call keeps its own idea of the leader (one per pool or listener).
 */
export function hostAwareClient(Base: ClientClass, url: string): HostAwareClient {
  const parsed = parseHosts(url);
  if (!parsed || (parsed.hosts.length === 1 && !parsed.readWrite)) return { Client: Base, connectionString: url };
  const { hosts, readWrite, singleHostUrl } = parsed;
  let leader: HostPort | undefined = hosts.length === 1 ? hosts[0] : undefined;

  const probe = async (target: HostPort, config: pg.ClientConfig): Promise<HostPort> => {
    const client = new pg.Client(config);
    aim(client, target);
    client.on('error', () => undefined);
    try {
      await client.connect();
      if (!readWrite) return target;
      const { rows } = await client.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
      if (rows[0]?.standby) throw new Error(`${target.host}:${target.port} is a standby`);
      return target;
    } finally {
      void client.end().catch(() => undefined);
    }
  };

  class LeaderClient extends Base {
    readonly #config: pg.ClientConfig;

    constructor(config?: pg.ClientConfig) {
      super(config);
      this.#config = { ...config, connectionString: singleHostUrl };
    }

    // pg.Pool connects with a callback, the listener with the promise.
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const connected = this.#connectToLeader().then(() => this as pg.Client);
      if (!callback) return connected;
      connected.then(() => callback(undefined as unknown as Error), callback);
    }

    async #connectToLeader(): Promise<void> {
      let target = leader;
      if (!target) {
        try {
          target = await Promise.any(hosts.map((h) => probe(h, this.#config)));
        } catch {
          throw Object.assign(
            new Error(
              `no ${readWrite ? 'writable ' : ''}PostgreSQL host answered among ${hosts.map((h) => `${h.host}:${h.port}`).join(', ')}`,
            ),
            { code: '08001' },
          );
        }
        leader = target;
      }
      aim(this, target);
      try {
        await super.connect();
        if (readWrite) {
          const { rows } = await super.query<{ standby: boolean }>('select pg_is_in_recovery() as standby');
          if (rows[0]?.standby)
            throw Object.assign(new Error(`${target.host}:${target.port} became a standby`), { code: '25006' });
        }
      } catch (error) {
        if (leader === target && hosts.length > 1) leader = undefined;
        void this.end().catch(() => undefined);
        throw error;
      }
      // A connection that dies (its server stopped) sends the next one looking for the leader again.
      this.once('error', () => {
        if (leader === target && hosts.length > 1) leader = undefined;
      });
    }
  }
  return { Client: LeaderClient, connectionString: singleHostUrl };
}
