import { useSyncExternalStore } from 'react';

export type Mode = 'live' | 'test';

/** Kept per tab, so two tabs may show the two modes; a new tab or a new sign-in starts live. */
const MODE_KEY = 'spa-dashboard-mode';
const listeners = new Set<() => void>();

function stored(): Mode {
  try {
    return sessionStorage.getItem(MODE_KEY) === 'test' ? 'test' : 'live';
  } catch {
    return 'live';
  }
}

let current: Mode = typeof window === 'undefined' ? 'live' : stored();

/** The mode every dashboard call is made in (the API client adds `mode=test` while it is test). */
export function currentMode(): Mode {
  return current;
}

export function setMode(mode: Mode): void {
  if (mode === current) return;
  current = mode;
  if (mode === 'test') sessionStorage.setItem(MODE_KEY, 'test');
  else sessionStorage.removeItem(MODE_KEY);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The mode, re-rendering on a switch; pages put it in their query keys so the two modes never share a cache entry. */
export function useMode(): Mode {
  return useSyncExternalStore(subscribe, currentMode, () => 'live');
}

/** A URL with `mode=test` added while in test mode. */
export function withMode(path: string, mode: Mode = current): string {
  if (mode !== 'test') return path;
  return `${path}${path.includes('?') ? '&' : '?'}mode=test`;
}
