/**
 * The acknowledgement of a major release: a fenced block with the info string `breaking`, one change id a line,
 * exactly as `pnpm openapi:breaking` prints it. It is written in the major changeset (reviewed with the change) and
 * `pnpm version-packages` copies it to docs/openapi-releases/<version>.breaking.md.
 */
const OPEN = /^\s*(`{3,}|~{3,})\s*breaking\s*$/;

/** Every id listed in the `breaking` blocks of a Markdown text (a changeset, or a release's .breaking.md). */
export function acknowledgedIn(markdown: string): string[] {
  const ids: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    if (fence === undefined) {
      fence = OPEN.exec(line)?.[1];
    } else if (line.trim().startsWith(fence) && line.trim().replaceAll(fence[0]!, '') === '') {
      fence = undefined;
    } else if (line.trim() !== '') ids.push(line.trim());
  }
  return ids;
}

/** The block to copy: every breaking change, in the guard's order. */
export const acknowledgementBlock = (ids: string[]) => ['```breaking', ...ids, '```'].join('\n');

/** The file `pnpm version-packages` writes beside a major's released document. */
export function acknowledgementFile(version: string, previous: string, ids: string[]): string {
  return [
    `# Breaking changes of ${version}`,
    '',
    `Each change from ${previous} that needs this major, acknowledged in the release's changesets. \`pnpm openapi:breaking\``,
    `checks that this list is exactly what changed between docs/openapi-releases/${previous}.json and ${version}.json.`,
    '',
    acknowledgementBlock(ids),
    '',
  ].join('\n');
}
