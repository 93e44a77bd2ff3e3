import { type BoundName, covers, isLowerBound, type Shape } from './schema-shape.ts';

/**
 * Which way data travels decides what breaks a client. `sent` is what the client sends (request
 * bodies, parameters): a narrower schema refuses what used to be accepted. `received` is what the
 * client reads (response bodies, headers, webhook payloads): a field that disappears, becomes
 * optional or changes type breaks the code that reads it.
 */
export type Direction = 'sent' | 'received';

export interface Finding {
  breaking: boolean;
  code: string;
  message: string;
}

/** The changes from `before` to `after` of one schema, fields named from `where` down. */
export function compareShapes(before: Shape, after: Shape, direction: Direction, where: string): Finding[] {
  const findings: Finding[] = [];
  const broke = (code: string, message: string) => findings.push({ breaking: true, code, message });
  const added = (code: string, message: string) => findings.push({ breaking: false, code, message });

  if (direction === 'sent') {
    const lost =
      before.types === null
        ? after.types
          ? ['any type']
          : []
        : [...before.types].filter((t) => !covers(after.types, t));
    if (lost.length) broke('request-type-narrowed', `${where} no longer accepts ${lost.join(', ')}`);
  } else {
    const gained =
      after.types === null
        ? before.types
          ? ['any type']
          : []
        : [...after.types].filter((t) => !covers(before.types, t));
    if (gained.length) broke('response-type-changed', `${where} may now be ${gained.join(', ')}`);
  }

  if (before.values && after.values) {
    const removed = [...before.values].filter((value) => !after.values!.has(value));
    const gained = [...after.values].filter((value) => !before.values!.has(value));
    if (removed.length) broke('enum-value-removed', `${where} lost the value(s) ${removed.join(', ')}`);
    if (gained.length) added('enum-value-added', `${where} gained the value(s) ${gained.join(', ')}`);
  } else if (!before.values && after.values && direction === 'sent') {
    broke('request-type-narrowed', `${where} is now limited to ${[...after.values].join(', ')}`);
  }

  if (direction === 'sent') {
    for (const [name, value] of Object.entries(after.bounds) as [BoundName, number][]) {
      const old = before.bounds[name];
      const tighter = old === undefined || (isLowerBound(name) ? value > old : value < old);
      if (tighter)
        broke(
          'request-type-narrowed',
          `${where} ${name} is now ${value}${old === undefined ? '' : ` (was ${old})`}`,
        );
    }
  }

  for (const [name, field] of before.fields) {
    const path = where ? `${where}.${name}` : name;
    const next = after.fields.get(name);
    if (!next) {
      // The service refuses unknown fields, so a request field that goes is as breaking as a response field.
      broke(direction === 'sent' ? 'request-field-removed' : 'response-field-removed', `${path} was removed`);
      continue;
    }
    if (direction === 'sent' && next.required && !field.required)
      broke('request-field-required', `${path} is now required`);
    if (direction === 'received' && field.required && !next.required)
      broke('response-field-optional', `${path} may now be absent`);
    findings.push(...compareShapes(field.shape, next.shape, direction, path));
  }
  for (const [name, field] of after.fields) {
    if (before.fields.has(name)) continue;
    const path = where ? `${where}.${name}` : name;
    if (direction === 'sent' && field.required)
      broke('request-field-required', `${path} was added as required`);
    else added(direction === 'sent' ? 'request-field-added' : 'response-field-added', `${path} was added`);
  }

  if (before.items && after.items)
    findings.push(...compareShapes(before.items, after.items, direction, `${where}[]`));
  return findings;
}
