/**
 * The URL of an entry of the build (`dist/<name>.js`, made by bin/build.mjs), for code that starts it in a thread
 * or a process of its own. From the bundle this module sits in `dist/` itself; from its source (vitest, the bench)
 * in `src/lib/`, and the entry is still the compiled one: no TypeScript loader runs in a worker thread.
 */
export function compiledEntry(name: 'compute-worker' | 'main' | 'spa'): URL {
  const dist = import.meta.url.endsWith('.ts') ? '../../dist/' : './';
  return new URL(`${dist}${name}.js`, import.meta.url);
}
