import { createHash } from 'node:crypto';
import { chmodSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { z } from 'zod';
import { type CommandIo, contextHost, type OperatorContext } from './command-host.js';
import { runCli } from './program.js';

/**
 * The embedded database belongs to the one process that opened it (PGlite runs inside it). While `pnpm start`
 * holds it, `pnpm spa` hands its command line to the server over a Unix socket beside the database, and the
 * server runs the very same command on its own connection (docs/decisions.md, "Operator CLI and data").
 */
export function operatorSocketPath(dataDir: string): string {
  const inside = join(dataDir, 'operator.sock');
  // A Unix socket path has room for about 104 bytes: a deep DATA_DIR gets one in the temp directory instead.
  if (Buffer.byteLength(inside) < 100) return inside;
  return join(tmpdir(), `spa-operator-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}.sock`);
}

const RunRequest = z.object({ argv: z.array(z.string()).max(200), cwd: z.string() }).strict();
const RunResponse = z.object({ exitCode: z.number().int(), stdout: z.string(), stderr: z.string() });
const MAX_BODY = 1_000_000;

/** Serves operator commands on the socket of dataDir; only the user who owns it can connect (mode 0600). */
export async function serveOperatorCommands(options: {
  dataDir: string;
  context: OperatorContext;
  logger: Pick<Logger, 'info' | 'error'>;
}): Promise<{ path: string; close(): Promise<void> }> {
  const path = operatorSocketPath(options.dataDir);
  rmSync(path, { force: true }); // this process holds the DATA_DIR lock: a socket file there is a dead server's
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      void (async () => {
        const parsed = RunRequest.safeParse(parseJson(Buffer.concat(chunks).toString('utf8')));
        if (req.method !== 'POST' || !parsed.success) {
          res.writeHead(400).end();
          return;
        }
        const out = { stdout: '', stderr: '' };
        const io: CommandIo = { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) };
        const exitCode = await runCli(parsed.data.argv, contextHost(options.context, { cwd: parsed.data.cwd, io }));
        options.logger.info(
          { command: parsed.data.argv.slice(0, 2).join(' '), exit_code: exitCode },
          'operator command',
        );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ exitCode, ...out }));
      })().catch((error: unknown) => {
        options.logger.error({ err: error }, 'operator command failed');
        res.writeHead(500).end();
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return {
    path,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Runs a command line inside the server that owns dataDir, writing its output to io. Undefined when no server
 * answers on the socket (the owner is another CLI command, or the server is gone): the caller runs it itself.
 */
export async function forwardToServer(
  dataDir: string,
  request: z.infer<typeof RunRequest>,
  io: CommandIo,
): Promise<number | undefined> {
  const body = JSON.stringify(request);
  const answer = await new Promise<string | undefined>((resolve, reject) => {
    const req = http.request(
      {
        socketPath: operatorSocketPath(dataDir),
        path: '/run',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks).toString('utf8'))
            : reject(new Error(`The server refused the command (HTTP ${res.statusCode}); see its log`)),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? resolve(undefined) : reject(error),
    );
    req.end(body);
  });
  if (answer === undefined) return undefined;
  const result = RunResponse.parse(JSON.parse(answer));
  io.stdout(result.stdout);
  io.stderr(result.stderr);
  return result.exitCode;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
