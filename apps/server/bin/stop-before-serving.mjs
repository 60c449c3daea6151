// @ts-check
// Imported first by the launcher: until the server takes its signals over, a stop ends the process at once with 0,
// since nothing is open that a stop must close. Without a handler a PID 1 ignores SIGTERM (a container would run
// on), and any other process dies of it (exit 1 under pnpm): a deploy that stops a pod just after it started must
// see neither. A build in progress (spawnSync) holds the signal until it returns.

/** @param {NodeJS.Signals} signal */
function stopBeforeServing(signal) {
  if (process.listenerCount(signal) > 1) return; // the server has its own handler now
  process.exit(0);
}
process.on('SIGTERM', stopBeforeServing);
process.on('SIGINT', stopBeforeServing);
