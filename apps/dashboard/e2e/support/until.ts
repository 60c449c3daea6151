/** Polls `check` until it returns true, failing after `withinMs` (a server under load decides how long things take). */
export async function until(what: string, check: () => Promise<boolean>, withinMs = 60_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
