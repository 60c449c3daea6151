import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { chownToPostgres, clusterUnavailableReason, ownedTempDir } from './postgres-cluster.js';

/**
 * A high-availability pair on real parts, as the deploy guide runs it: one etcd and two Patroni nodes over
 * PostgreSQL 15, in synchronous mode (a commit returns once the standby has it), each on free ports in temporary
 * folders, children of the test (as the `postgres` user when it runs as root) and killed with their folders.
 */
const PATRONI = process.env.PATRONI_BIN ?? '/usr/bin/patroni';
const ETCD = process.env.ETCD_BIN ?? '/usr/bin/etcd';
const PG_BIN = process.env.POSTGRES_BIN_DIR ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** Why the machine cannot run the pair, or undefined when it can. */
export function patroniUnavailableReason(): string | undefined {
  const cluster = clusterUnavailableReason();
  if (cluster) return cluster;
  for (const [binary, hint] of [
    [PATRONI, 'PATRONI_BIN'],
    [ETCD, 'ETCD_BIN'],
  ] as const) {
    try {
      accessSync(binary, constants.X_OK);
    } catch {
      return `${binary} is missing (Debian: apt-get install patroni etcd-server; or set ${hint})`;
    }
  }
  return undefined;
}

export interface PatroniNode {
  name: string;
  pgPort: number;
  apiPort: number;
  dataDir: string;
}

export interface PatroniPair {
  nodes: PatroniNode[];
  /** The libpq-style URL of a database on both nodes, the leader required (target_session_attrs=read-write). */
  url(database: string): string;
  /** A plain URL of one node. */
  nodeUrl(node: PatroniNode, database: string): string;
  /** The node Patroni's REST API names leader now, if any. */
  leader(): Promise<PatroniNode | undefined>;
  /** Waits for a leader and a streaming synchronous standby. */
  healthy(withinMs: number): Promise<PatroniNode>;
  /** kill -9 of the node's postmaster (its PostgreSQL, not Patroni). */
  killPostgres(node: PatroniNode): void;
  logs(): string;
  remove(): Promise<void>;
}

interface Member {
  name: string;
  role: string;
  state: string;
}

export async function startPatroniPair(): Promise<PatroniPair> {
  const dir = ownedTempDir('spa-patroni-');
  const children: ChildProcess[] = [];
  const logFiles: string[] = [];
  const spawnLogged = (name: string, file: string, args: string[]) => {
    const log = join(dir, `${name}.log`);
    writeFileSync(log, '');
    chownToPostgres(log);
    logFiles.push(log);
    const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    // Output to a file the test prints on failure; a process group of its own so a kill ends runuser and its child.
    const child = spawn('sh', ['-c', `exec "$@" >>${log} 2>&1`, 'sh', command, ...argv], {
      stdio: 'ignore',
      detached: true,
    });
    children.push(child);
    return child;
  };
  const killAll = () => {
    for (const child of children)
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
  };
  process.once('exit', killAll);

  const [etcdClient, etcdPeer] = [await freePort(), await freePort()];
  spawnLogged('etcd', ETCD, [
    '--name',
    'spa',
    '--data-dir',
    join(dir, 'etcd'),
    '--listen-client-urls',
    `http://127.0.0.1:${etcdClient}`,
    '--advertise-client-urls',
    `http://127.0.0.1:${etcdClient}`,
    '--listen-peer-urls',
    `http://127.0.0.1:${etcdPeer}`,
    '--initial-advertise-peer-urls',
    `http://127.0.0.1:${etcdPeer}`,
    '--initial-cluster',
    `spa=http://127.0.0.1:${etcdPeer}`,
  ]);

  const nodes: PatroniNode[] = [];
  for (const name of ['node1', 'node2'])
    nodes.push({ name, pgPort: await freePort(), apiPort: await freePort(), dataDir: join(dir, name, 'data') });

  const startNode = (node: PatroniNode) => {
    const home = join(dir, node.name);
    rmSync(home, { recursive: true, force: true });
    const config = join(dir, `${node.name}.yml`);
    // JSON is YAML: no YAML writer needed.
    writeFileSync(
      config,
      JSON.stringify({
        scope: 'spa',
        name: node.name,
        restapi: { listen: `127.0.0.1:${node.apiPort}`, connect_address: `127.0.0.1:${node.apiPort}` },
        etcd3: { hosts: [`127.0.0.1:${etcdClient}`] },
        bootstrap: {
          dcs: {
            // Short timings: a leader that stops renewing is replaced within seconds, not the default 30 s.
            ttl: 10,
            loop_wait: 1,
            retry_timeout: 3,
            maximum_lag_on_failover: 1048576,
            synchronous_mode: true,
            // A crashed leader fails over at once rather than restarting in place (300 s by default).
            master_start_timeout: 0,
            primary_start_timeout: 0,
            postgresql: {
              use_pg_rewind: true,
              parameters: {
                // Throwaway files: the test kills PostgreSQL, never the machine.
                fsync: 'off',
                full_page_writes: 'on',
                shared_buffers: '32MB',
                max_connections: 80,
                max_wal_senders: 5,
                max_replication_slots: 5,
                TimeZone: 'UTC',
              },
            },
          },
          initdb: [{ encoding: 'UTF8' }, { 'auth-local': 'trust' }, { 'auth-host': 'trust' }, 'no-sync'],
        },
        postgresql: {
          listen: `127.0.0.1:${node.pgPort}`,
          connect_address: `127.0.0.1:${node.pgPort}`,
          data_dir: node.dataDir,
          bin_dir: PG_BIN,
          pgpass: join(dir, `${node.name}.pgpass`),
          authentication: {
            superuser: { username: 'postgres' },
            replication: { username: 'postgres' },
            rewind: { username: 'postgres' },
          },
          pg_hba: ['local all all trust', 'host all all 127.0.0.1/32 trust', 'host replication all 127.0.0.1/32 trust'],
          parameters: { unix_socket_directories: dir },
        },
      }),
    );
    chownToPostgres(config);
    spawnLogged(node.name, PATRONI, [config]);
  };

  const members = async (): Promise<Member[]> => {
    for (const node of nodes) {
      try {
        const res = await fetch(`http://127.0.0.1:${node.apiPort}/cluster`, { signal: AbortSignal.timeout(1_000) });
        return ((await res.json()) as { members: Member[] }).members;
      } catch {
        // that node's API is down: ask the other
      }
    }
    return [];
  };
  const byName = (name: string) => nodes.find((n) => n.name === name);

  const pair: PatroniPair = {
    nodes,
    url: (database) =>
      `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.pgPort}`).join(',')}/${database}?target_session_attrs=read-write`,
    nodeUrl: (node, database) => `postgres://postgres@127.0.0.1:${node.pgPort}/${database}`,
    leader: async () => {
      const leader = (await members()).find((m) => m.role === 'leader' && m.state === 'running');
      return leader ? byName(leader.name) : undefined;
    },
    healthy: async (withinMs) => {
      const deadline = performance.now() + withinMs;
      for (;;) {
        const all = await members();
        const leader = all.find((m) => m.role === 'leader' && m.state === 'running');
        const sync = all.find((m) => m.role === 'sync_standby' && (m.state === 'streaming' || m.state === 'running'));
        if (leader && sync) return byName(leader.name)!;
        if (performance.now() > deadline)
          throw new Error(`no leader with a synchronous standby within ${withinMs} ms: ${JSON.stringify(all)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    killPostgres: (node) => {
      const pid = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      process.kill(pid, 'SIGKILL');
    },
    logs: () => logFiles.map((file) => `--- ${file}\n${readFileSync(file, 'utf8').slice(-4_000)}`).join('\n'),
    remove: async () => {
      killAll();
      // Patroni's PostgreSQL runs in its own session: stop each one that is left.
      for (const node of nodes) {
        try {
          const pid = Number(readFileSync(join(node.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
          process.kill(pid, 'SIGKILL');
        } catch {
          // not running
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      rmSync(dir, { recursive: true, force: true });
    },
  };

  try {
    startNode(nodes[0]!);
    // The first node bootstraps (initdb) and leads; the second then copies it (pg_basebackup) and follows.
    const deadline = performance.now() + 60_000;
    while (!(await pair.leader())) {
      if (performance.now() > deadline) throw new Error('the first node did not become leader within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    startNode(nodes[1]!);
    await pair.healthy(60_000);
    return pair;
  } catch (error) {
    const text = pair.logs();
    await pair.remove();
    throw new Error(`${(error as Error).message}\n${text}`, { cause: error });
  }
}
