import type { AnyFastify } from './any-fastify.ts';
import { AppError } from './errors.ts';

/**
 * How deeply arrays and objects may nest in a request body, the body itself being level 1. Deeper
 * JSON still fits in the body limit (a megabyte holds half a million levels), and the code that
 * walks such values recursively (JSON.stringify, Ajv compiling a `parameters_schema`, the
 * database driver) overflows the call stack on it: a 500 instead of a 400. No documented field
 * needs more than a handful of levels.
 */
export const MAX_JSON_DEPTH = 32;

/** An unpaired UTF-16 surrogate: JSON's `\ud800` escape can say it, UTF-8 and PostgreSQL cannot. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

type Problem = 'nul' | 'surrogate' | 'depth';

interface Finding {
  problem: Problem;
  param: string;
}

function textProblem(text: string): Problem | null {
  if (text.includes('\u0000')) return 'nul';
  if (LONE_SURROGATE.test(text)) return 'surrogate';
  return null;
}

/** `goals[0].metrics.a` → `goals`: the parameter a too-deep value was sent in. */
function topLevel(path: string): string {
  return path.match(/^[^.[]+/)?.[0] ?? 'body';
}

/**
 * The first text in a parsed value that cannot be stored (a NUL, an unpaired surrogate), or the
 * first place it nests past MAX_JSON_DEPTH, with where it sits as an integrator writes it
 * (`goals[0].name`). Walked with an explicit stack, so the walk itself cannot overflow.
 */
export function findBadInput(root: unknown, rootPath: string, rootDepth = 0): Finding | null {
  const stack: Array<[unknown, string, number]> = [[root, rootPath, rootDepth]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { problem, param: path || 'body' };
      continue;
    }
    // Only what JSON and query parsing produce: streams, buffers and files are not walked.
    if (value === null || typeof value !== 'object') continue;
    const children: Array<[unknown, string, number]> = [];
    if (Array.isArray(value)) {
      if (depth + 1 > MAX_JSON_DEPTH) return { problem: 'depth', param: topLevel(path) };
      for (const [index, item] of value.entries()) children.push([item, `${path}[${index}]`, depth + 1]);
    } else {
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) continue;
      if (depth + 1 > MAX_JSON_DEPTH) return { problem: 'depth', param: topLevel(path) };
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        const problem = textProblem(key);
        if (problem) return { problem, param: at };
        children.push([item, at, depth + 1]);
      }
    }
    // Reversed onto the stack, so the first problem in document order is the one reported.
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i]!);
  }
  return null;
}

/** Path and query parsers make objects of their own prototypes that hold strings or arrays of them. */
function findInNamed(part: unknown): Finding | null {
  if (!part || typeof part !== 'object') return null;
  for (const [name, value] of Object.entries(part)) {
    const problem = textProblem(name);
    if (problem) return { problem, param: name };
    const found = findBadInput(value, name, 1);
    if (found !== null) return found;
  }
  return null;
}

const MESSAGES: Record<Problem, string> = {
  nul: 'text must not contain NUL characters.',
  surrogate: 'text must be well-formed Unicode (it holds an unpaired UTF-16 surrogate).',
  depth: `arrays and objects must not nest more than ${MAX_JSON_DEPTH} levels deep.`,
};

/**
 * Refuses, naming the parameter, what would otherwise surface later as a 500: text PostgreSQL
 * cannot store (NUL characters), text that is not valid Unicode (unpaired surrogates, which would
 * be stored mangled), and JSON nested deeper than recursive code can walk. A `preValidation` hook,
 * so it runs before the schema check too. Routes whose body a plugin fills later (multipart form
 * fields) run it again as their own hook, which comes after the plugin's.
 */
export function refuseUnsafeInput(
  request: { params: unknown; query: unknown; body: unknown },
  _reply: unknown,
  done: () => void,
): void {
  const found = findInNamed(request.params) ?? findInNamed(request.query) ?? findBadInput(request.body, '');
  if (found !== null) {
    throw new AppError('parameter_invalid', `Invalid ${found.param}: ${MESSAGES[found.problem]}`, {
      param: found.param,
    });
  }
  done();
}

/** The check on every route of the app. */
export function checkInputOnEveryRoute(app: AnyFastify): void {
  app.addHook('preValidation', refuseUnsafeInput);
}
