import { execFileSync } from 'node:child_process';

/** The argv prefix that runs a command as the local user `nobody` (uid and gid 65534, no other groups). */
export const AS_NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] as const;

/** Whether this machine lets the tests act as another local user: root, with setpriv. */
export const canRunAsNobody = (() => {
  try {
    return (
      process.getuid?.() === 0 &&
      execFileSync(AS_NOBODY[0], [...AS_NOBODY.slice(1), 'id', '-u'])
        .toString()
        .trim() === '65534'
    );
  } catch {
    return false;
  }
})();
