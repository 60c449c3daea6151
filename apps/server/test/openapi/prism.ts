import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../support/free-port.js';

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));

export interface Prism {
  /** http://127.0.0.1:PORT */
  base: string;
  stop(): void;
}

/**
 * Stoplight Prism (`mock DOCUMENT` or `proxy DOCUMENT UPSTREAM`) on a free port, once it says it is listening;
 * rejects with its output if it exits first.
 */
export async function startPrism(args: string[]): Promise<Prism> {
  const port = await freePort();
  const prism: ChildProcess = spawn(PRISM, [...args, '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) resolve();
    };
    prism.stdout!.on('data', onData);
    prism.stderr!.on('data', onData);
    prism.on('exit', (code) => reject(new Error(`prism exited with ${code}: ${output}`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => prism.kill() };
}
