import { dataDirOf } from '../config/config.js';
import { lockOwner } from '../db/data-dir-lock.js';
import { ServerUnreachableError } from '../errors/operator-error.js';
import { type CommandIo, standaloneHost } from './command-host.js';
import { reportFailure } from './exit-codes.js';
import { forwardToServer } from './operator-socket.js';
import { runCli } from './program.js';

/**
 * `pnpm spa …` as the terminal runs it. With DATABASE_URL the command connects itself. On the embedded database
 * it does too, unless a running server owns DATA_DIR: then the server runs it (operator-socket.ts). A server this
 * user cannot reach (another user's socket, an unreadable lock file) is exit 3 with one line, never a stack.
 */
export async function runSpa(argv: string[], env: Record<string, string | undefined>, io: CommandIo): Promise<number> {
  const host = standaloneHost(env, io);
  // A restore replaces the files a running server has open: it is never handed to the server, and refuses (the
  // DATA_DIR lock names the server's pid) until the server has stopped.
  if (!env.DATABASE_URL && argv[0] !== 'restore') {
    const dataDir = dataDirOf(env);
    try {
      if (lockOwner(dataDir) !== undefined) {
        const exitCode = await forwardToServer(dataDir, { argv, cwd: host.cwd }, io);
        if (exitCode !== undefined) return exitCode;
      }
    } catch (error) {
      return reportFailure(new ServerUnreachableError(dataDir, error), io);
    }
  }
  return runCli(argv, host);
}
