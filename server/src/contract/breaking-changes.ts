import { compareShapes, type Direction, type Finding } from './compare-shapes.ts';
import { OpenApiDocument } from './openapi-document.ts';

/**
 * The changes between two OpenAPI documents (3.0 or 3.1) that an integrator can notice, each
 * marked breaking or additive. Breaking, as docs/contract.md lists them: a path, operation,
 * webhook, success response, response field, header or enum value removed; a request field or
 * parameter made required or added as required; a request type narrowed (fewer types, fewer
 * values, tighter bounds); a response type widened or changed. Wording and examples are ignored.
 */
export interface ContractChange extends Finding {
  /** Where in the contract: `GET /things`, `webhook thing.created`. */
  operation: string;
}

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export function diffContracts(before: unknown, after: unknown): ContractChange[] {
  const old = new OpenApiDocument(before as Json);
  const next = new OpenApiDocument(after as Json);
  const changes: ContractChange[] = [];
  const note = (operation: string, findings: Finding[]) => {
    for (const finding of findings) changes.push({ operation, ...finding });
  };

  for (const [group, label] of [
    ['paths', ''],
    ['webhooks', 'webhook '],
  ] as const) {
    const oldItems = old.map(group);
    const newItems = next.map(group);
    for (const [name, rawItem] of Object.entries(oldItems)) {
      const item = old.deref(rawItem) as Json;
      const newItem = name in newItems ? (next.deref(newItems[name]) as Json) : null;
      if (!newItem) {
        note(`${label}${name}`, [
          { breaking: true, code: `${group === 'paths' ? 'path' : 'webhook'}-removed`, message: 'removed' },
        ]);
        continue;
      }
      for (const method of METHODS.filter((m) => item[m])) {
        const operation = `${label}${method.toUpperCase()} ${name}`;
        if (!newItem[method]) {
          note(operation, [
            {
              breaking: true,
              code: group === 'paths' ? 'operation-removed' : 'webhook-removed',
              message: 'removed',
            },
          ]);
          continue;
        }
        const compare = group === 'paths' ? compareOperation : compareWebhook;
        note(operation, compare(old, item, item[method] as Json, next, newItem, newItem[method] as Json));
      }
      for (const method of METHODS.filter((m) => newItem[m] && !item[m])) {
        note(`${label}${method.toUpperCase()} ${name}`, [
          { breaking: false, code: 'operation-added', message: 'added' },
        ]);
      }
    }
    for (const name of Object.keys(newItems).filter((n) => !(n in oldItems))) {
      note(`${label}${name}`, [
        { breaking: false, code: `${group === 'paths' ? 'path' : 'webhook'}-added`, message: 'added' },
      ]);
    }
  }
  return changes;
}

function compareOperation(
  old: OpenApiDocument,
  oldItem: Json,
  before: Json,
  next: OpenApiDocument,
  newItem: Json,
  after: Json,
): Finding[] {
  const findings: Finding[] = [];
  const oldParams = old.parameters(oldItem, before);
  const newParams = next.parameters(newItem, after);
  for (const [key, param] of oldParams) {
    const now = newParams.get(key);
    if (!now) {
      findings.push({ breaking: true, code: 'parameter-removed', message: `parameter ${key} was removed` });
      continue;
    }
    if (now.required === true && param.required !== true) {
      findings.push({
        breaking: true,
        code: 'parameter-required',
        message: `parameter ${key} is now required`,
      });
    }
    findings.push(
      ...compareShapes(old.shape(param.schema), next.shape(now.schema), 'sent', `parameter ${key}`),
    );
  }
  for (const [key, param] of newParams) {
    if (oldParams.has(key)) continue;
    findings.push(
      param.required === true
        ? { breaking: true, code: 'parameter-required', message: `parameter ${key} was added as required` }
        : { breaking: false, code: 'parameter-added', message: `parameter ${key} was added` },
    );
  }

  const oldBody = old.deref(before.requestBody) as Json | undefined;
  const newBody = next.deref(after.requestBody) as Json | undefined;
  if (newBody?.required === true && oldBody?.required !== true) {
    findings.push({
      breaking: true,
      code: 'request-field-required',
      message: 'the request body is now required',
    });
  }
  if (oldBody) findings.push(...compareContent(old, oldBody, next, newBody, 'sent', 'request body'));

  const oldResponses = (before.responses ?? {}) as Json;
  const newResponses = (after.responses ?? {}) as Json;
  for (const [status, rawResponse] of Object.entries(oldResponses)) {
    const response = old.deref(rawResponse) as Json;
    const now = status in newResponses ? (next.deref(newResponses[status]) as Json) : undefined;
    if (!now) {
      // An error status that goes away breaks nobody; a success that goes away breaks every caller.
      if (status.startsWith('2'))
        findings.push({
          breaking: true,
          code: 'response-removed',
          message: `response ${status} was removed`,
        });
      continue;
    }
    findings.push(...compareHeaders(response, now, `response ${status}`));
    findings.push(...compareContent(old, response, next, now, 'received', `response ${status}`));
  }
  for (const status of Object.keys(newResponses).filter((s) => !(s in oldResponses))) {
    findings.push({ breaking: false, code: 'response-added', message: `response ${status} was added` });
  }
  return findings;
}

/** A webhook is a request the service sends: its payload and headers are read by the integrator. */
function compareWebhook(
  old: OpenApiDocument,
  oldItem: Json,
  before: Json,
  next: OpenApiDocument,
  newItem: Json,
  after: Json,
): Finding[] {
  const findings: Finding[] = [];
  const oldHeaders = old.parameters(oldItem, before);
  const newHeaders = next.parameters(newItem, after);
  for (const key of oldHeaders.keys()) {
    if (!newHeaders.has(key))
      findings.push({ breaking: true, code: 'response-field-removed', message: `${key} was removed` });
  }
  const oldBody = old.deref(before.requestBody) as Json | undefined;
  if (oldBody)
    findings.push(
      ...compareContent(
        old,
        oldBody,
        next,
        next.deref(after.requestBody) as Json | undefined,
        'received',
        'payload',
      ),
    );
  return findings;
}

function compareContent(
  old: OpenApiDocument,
  before: Json,
  next: OpenApiDocument,
  after: Json | undefined,
  direction: Direction,
  where: string,
): Finding[] {
  const findings: Finding[] = [];
  const oldContent = (before.content ?? {}) as Record<string, Json>;
  const newContent = (after?.content ?? {}) as Record<string, Json>;
  for (const [mediaType, media] of Object.entries(oldContent)) {
    const now = newContent[mediaType];
    if (!now) {
      const code = direction === 'sent' ? 'request-field-removed' : 'response-field-removed';
      findings.push({ breaking: true, code, message: `${where} ${mediaType} was removed` });
      continue;
    }
    findings.push(
      ...compareShapes(
        old.shape(media.schema),
        next.shape(now.schema),
        direction,
        `${where}${mediaType === 'application/json' ? '' : ` ${mediaType}`}`,
      ),
    );
  }
  return findings;
}

function compareHeaders(before: Json, after: Json, where: string): Finding[] {
  const oldHeaders = (before.headers ?? {}) as Json;
  const newHeaders = (after.headers ?? {}) as Json;
  const lower = new Set(Object.keys(newHeaders).map((name) => name.toLowerCase()));
  return Object.keys(oldHeaders)
    .filter((name) => !lower.has(name.toLowerCase()))
    .map((name) => ({
      breaking: true,
      code: 'response-field-removed',
      message: `${where} header ${name} was removed`,
    }));
}
