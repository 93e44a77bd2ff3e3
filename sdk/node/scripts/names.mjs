// Namespace and method names of the SDKs, from an operation's first tag and its operationId. The
// Python SDK derives the same names (snake_case); operations.json records them so both can be compared.

const words = (text) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (text) =>
  words(text)
    .map((word) => word[0].toUpperCase() + word.slice(1).toLowerCase())
    .join('');
export const camel = (text) => {
  const p = pascal(text);
  return p[0].toLowerCase() + p.slice(1);
};

/** The tag's noun as it may begin an operationId: plural as written, and its singular forms. */
function nounForms(tag) {
  const plural = pascal(tag);
  const forms = new Set([plural]);
  if (plural.endsWith('ies')) forms.add(`${plural.slice(0, -3)}y`);
  if (plural.endsWith('es')) {
    forms.add(plural.slice(0, -2)); // Inboxes → Inbox
    forms.add(`${plural.slice(0, -2)}is`); // Analyses → Analysis
  }
  if (plural.endsWith('s')) forms.add(plural.slice(0, -1));
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * `createScenarioWithGpt` under "Scenarios" → `createWithGpt`: the leading lowercase verb, then the
 * rest without the tag's noun when the rest starts with it (a whole word: the next letter is a
 * capital or nothing). Otherwise the operationId as it is.
 */
export function methodName(operationId, tag) {
  const verb = operationId.match(/^[a-z0-9]+/)?.[0] ?? '';
  const rest = operationId.slice(verb.length);
  for (const noun of nounForms(tag)) {
    if (rest.startsWith(noun) && (rest.length === noun.length || /[A-Z0-9]/.test(rest[noun.length]))) {
      return verb + rest.slice(noun.length);
    }
  }
  return operationId;
}
