import { describe, expect, it } from 'vitest';
import { type Change, diffContract } from '../../src/openapi/contract-diff/index.js';
import { type Edit, changeEnum, ISSUE_EDITS, OTHER_EDITS } from './contract-edits.js';
import { documentAt, type Json } from './release-fixture.js';

const report = (changes: Change[]) =>
  changes.length === 0
    ? '(no change found)'
    : changes.map((change) => `${change.severity}: ${change.id} (in ${change.where.join(', ')})`).join('\n');

const changed = (edit: (document: Json) => void) => {
  const after = documentAt('1.0.0');
  edit(after);
  return diffContract(documentAt('1.0.0'), after);
};

/** The comparison under `pnpm openapi:breaking`, on copies of the document the contract generates now. */
describe('the contract comparison', () => {
  it.each([...ISSUE_EDITS, ...OTHER_EDITS].map((edit) => [edit.name, edit] as [string, Edit]))(
    'names %s as breaking',
    (_name, edit) => {
      const changes = changed(edit.apply);
      const breaking = changes.filter((change) => change.severity === 'breaking').map((change) => change.id);
      for (const id of edit.ids(documentAt('1.0.0')))
        expect(breaking, `expected "${id}" among:\n${report(changes)}`).toContain(id);
    },
  );

  it('finds nothing between the document and itself, nor in a description or an example', () => {
    expect(report(diffContract(documentAt('1.0.0'), documentAt('1.0.0')))).toBe('(no change found)');
    const prose = changed((document) => {
      document.components.schemas.Booking.description = 'A booking, said differently';
      document.components.schemas.Booking.properties.notes.example = 'No nuts';
      document.paths['/v1/venues'].get.summary = 'All venues';
      document.info.description = 'Reworded';
    });
    expect(report(prose)).toBe('(no change found)');
  });

  it('reads a subclass (allOf of its base, its own fields beside) as the base and its own fields together', () => {
    // The same body written flat, then as a subclass of the 403 base: the wire is the same, so nothing changed.
    const flat = documentAt('1.0.0');
    const subclass = flat.components.schemas.InsufficientScopeError;
    const base = flat.components.schemas[String(subclass.allOf[0].$ref).split('/').at(-1)!];
    const { allOf: _allOf, ...own } = subclass;
    flat.components.schemas.InsufficientScopeError = {
      ...own,
      properties: { ...base.properties, ...own.properties },
      required: [...new Set([...base.required, ...own.required])],
    };
    const changes = diffContract(flat, documentAt('1.0.0'));
    expect(changes.filter((change) => change.severity === 'breaking').map((change) => change.id)).toEqual([]);
  });

  it('names one change of a shared schema once, with every operation and webhook that carries it', () => {
    const [change] = changed(ISSUE_EDITS[0]!.apply);
    expect(change?.where, report(changed(ISSUE_EDITS[0]!.apply))).toEqual(
      expect.arrayContaining([
        'GET /v1/bookings/{booking_id} 200',
        'webhook booking.created',
        'webhook booking.cancelled',
      ]),
    );
  });

  it('takes a value added to an enum of an answer declared open to additions as additive, and says by which rule', () => {
    const changes = changed((document) => changeEnum(document, 'BookingStatus', (values) => [...values, 'on_hold']));
    expect(
      changes.map((change) => `${change.severity}: ${change.id}`),
      report(changes),
    ).toEqual(['additive: response enum value added: BookingStatus "on_hold"']);
    expect(changes[0]!.rule).toMatch(/open to additions/);
  });

  it('reads an enum made open the way generators are told (anyOf with the plain type) as the same enum, and open', () => {
    const answering = (status: Json): Json => ({
      openapi: '3.0.3',
      info: { title: 'Minimal', version: '1.0.0' },
      paths: {
        '/v1/things': {
          get: {
            operationId: 'listThings',
            responses: {
              '200': {
                description: 'Things',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Thing: { type: 'object', properties: { status: { $ref: '#/components/schemas/Status' } } },
          Status: status,
        },
      },
    });
    const closed = { type: 'string', enum: ['new', 'done'] };
    const open = (values: string[]) => ({ anyOf: [{ type: 'string', enum: values }, { type: 'string' }] });
    expect(report(diffContract(answering(closed), answering(open(['new', 'done']))))).toBe('(no change found)');
    const added = diffContract(answering(open(['new', 'done'])), answering(open(['new', 'done', 'late'])));
    expect(
      added.map((change) => `${change.severity}: ${change.id}`),
      report(added),
    ).toEqual(['additive: response enum value added: Status "late"']);
    const toClosed = diffContract(answering(closed), answering({ ...closed, enum: ['new', 'done', 'late'] }));
    expect(
      toClosed.map((change) => change.severity),
      report(toClosed),
    ).toEqual(['breaking']);
  });

  it('takes a new optional field, operation, status or optional parameter as additive', () => {
    const changes = changed((document) => {
      document.components.schemas.Booking.properties.loyalty_id = { type: 'string', nullable: true };
      document.components.schemas.CreateBookingRequest.properties.loyalty_id = { type: 'string' };
      document.paths['/v1/venues'].get.responses['418'] = { description: 'Teapot' };
      document.paths['/v1/ping'] = { get: { operationId: 'ping', responses: { '200': { description: 'Pong' } } } };
    });
    expect(
      changes.map((change) => `${change.severity}: ${change.id}`),
      report(changes),
    ).toEqual([
      'additive: operation added: GET /v1/ping',
      'additive: request field added: CreateBookingRequest.loyalty_id',
      'additive: response field added: Booking.loyalty_id',
      'additive: status added: GET /v1/venues 418',
    ]);
  });

  it('reads a request that accepts less as breaking and one that accepts more as additive', () => {
    const pageSize = (document: Json) =>
      Object.values<Json>(document.components.parameters).find((parameter) => parameter.name === 'page_size')!.schema;
    const narrowed = changed((document) => (pageSize(document).maximum = 50));
    expect(
      narrowed.map((change) => `${change.severity}: ${change.id}`),
      report(narrowed),
    ).toEqual(['breaking: request parameter narrowed: query page_size (maximum 100 to 50)']);
    const widened = changed((document) => (pageSize(document).maximum = 500));
    expect(
      widened.map((change) => change.severity),
      report(widened),
    ).toEqual(['additive']);
  });

  it('no rule of breaking-rules.ts makes any of the breaking changes above additive', () => {
    for (const edit of [...ISSUE_EDITS, ...OTHER_EDITS]) {
      const excused = changed(edit.apply).filter(
        (change) => change.rule !== undefined && edit.ids(documentAt('1.0.0')).includes(change.id),
      );
      expect(excused, `${edit.name}: ${report(excused)}`).toEqual([]);
    }
  });
});
