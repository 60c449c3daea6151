import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { compiledEntry } from '../../src/lib/compiled-entry.js';
import { compiledArgs } from '../support/compiled.js';
import { testDbKind } from '../support/test-db.js';

const run = promisify(execFile);
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The first frame of a stack: the file, line and column where the error was thrown. */
function topFrame(stack: string) {
  const match = /\n\s+at .*?\(?([^\s()]+):(\d+):(\d+)\)?\n/.exec(stack);
  if (!match) throw new Error(`no frame in ${stack}`);
  return { file: match[1]!, line: Number(match[2]) };
}

// No database: it runs once, in the PGlite project.
describe.skipIf(testDbKind !== 'pglite')('the compiled entries run with source maps', () => {
  it('a thrown error of the server names the TypeScript source line that threw it', async () => {
    const started = await run(process.execPath, compiledArgs('main'), {
      cwd: SERVER_DIR,
      env: { ...process.env, PORT: 'not-a-port', LOG_LEVEL: 'info' },
    }).catch((error: { code: number; stdout: string }) => error);
    expect('code' in started && started.code).toBe(1);
    const fatal = JSON.parse(started.stdout.split('\n').find((l) => l.includes('"could not start"'))!);
    const { file, line } = topFrame(fatal.err.stack);
    expect(file).toBe(`${SERVER_DIR}src/config/config.ts`);
    expect(readFileSync(file, 'utf8').split('\n')[line - 1]).toContain('PORT must be a port number');
  });

  it('so does one thrown in an availability worker thread (it inherits the flag)', async () => {
    const worker = `import(${JSON.stringify(compiledEntry('compute-worker').href)}).then((m) =>
      require('node:worker_threads').parentPort.postMessage(m.default({})))`;
    const { stdout } = await run(process.execPath, [
      '--enable-source-maps',
      '-e',
      `new (require('node:worker_threads').Worker)(${JSON.stringify(worker)}, { eval: true })
        .on('message', (answer) => console.log(JSON.stringify(answer)))`,
    ]);
    const { failed } = JSON.parse(stdout) as { failed: { stack: string } };
    const { file, line } = topFrame(failed.stack);
    expect(file).toMatch(new RegExp(`^${SERVER_DIR}src/.+\\.ts$`));
    // A task without a venue fails where the computation first reads it: a line of code in that source file.
    expect(readFileSync(file, 'utf8').split('\n')[line - 1]?.trim()).not.toBe('');
  });
});
