// The entry piscina loads in each worker thread. The server runs from TypeScript source (tsx for `pnpm start` and
// the bench, vite-node under vitest), and a worker thread inherits no loader from vitest, so this file registers
// tsx itself, in a namespace of its own, which works whichever way the parent process was started.
import { register } from 'tsx/esm/api';

const loader = register({ namespace: 'availability-worker' });
const { default: computeAvailability } = await loader.import('./compute-worker.ts', import.meta.url);

export default computeAvailability;
