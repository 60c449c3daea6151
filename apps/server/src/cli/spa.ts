import { runSpa } from './run-spa.js';

/** `pnpm spa <command>`: the operator CLI (run-spa.ts), its exit code as the process's. */
process.exitCode = await runSpa(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
