import type { SchemaContext } from './compare-schema.js';
import { enumOf, type SchemaNode } from './resolve.js';

const names = (node: SchemaNode) => node.schema['x-enum-varnames'] as string[] | undefined;

/**
 * Enum values: one removed is breaking both ways (a request the server took is refused; a generated client's
 * constant disappears). One added to a request is additive; to an answer it is breaking unless the enum was declared
 * open to additions (breaking-rules.ts). `x-enum-varnames` are the generated constants' names: renaming one breaks.
 */
export function compareEnums(
  context: SchemaContext,
  before: SchemaNode,
  after: SchemaNode,
  at: (keyword: string) => string,
) {
  const { direction: dir, log, where } = context;
  const was = enumOf(before.schema);
  const is = enumOf(after.schema);
  const subject = at('enum');
  if (was && is) {
    for (const value of was.filter((value) => !is.includes(value))) {
      log.add('breaking', `${dir} enum value removed`, `${subject} ${JSON.stringify(value)}`, where);
    }
    for (const value of is.filter((value) => !was.includes(value))) {
      const facts = { open: before.open, schema: before.schema, after: value };
      log.add(
        dir === 'request' ? 'additive' : 'breaking',
        `${dir} enum value added`,
        `${subject} ${JSON.stringify(value)}`,
        where,
        undefined,
        facts,
      );
    }
    const namesBefore = names(before);
    const namesAfter = names(after);
    if (namesBefore && namesAfter) {
      for (const value of was.filter((value) => is.includes(value))) {
        const old = namesBefore[was.indexOf(value)];
        const now = namesAfter[is.indexOf(value)];
        if (old !== now)
          log.add(
            'breaking',
            'enum constant renamed',
            `${subject} ${JSON.stringify(value)}`,
            where,
            `${old} to ${now}`,
          );
      }
    } else if (namesBefore || namesAfter) {
      log.add(
        'breaking',
        'enum constants renamed',
        subject,
        where,
        namesAfter ? 'x-enum-varnames added' : 'x-enum-varnames removed',
      );
    }
  } else if (was) {
    log.add(
      dir === 'request' ? 'additive' : 'breaking',
      `${dir} enum removed`,
      subject,
      where,
      `was ${was.map((value) => JSON.stringify(value)).join(', ')}`,
    );
  } else if (is) {
    log.add(
      dir === 'request' ? 'breaking' : 'additive',
      `${dir} enum added`,
      subject,
      where,
      is.map((value) => JSON.stringify(value)).join(', '),
    );
  }
}
