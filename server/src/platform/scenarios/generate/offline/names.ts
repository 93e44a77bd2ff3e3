// The role title and the company a text names. People name a company in many ways ("Acme is
// hiring", "At Acme, we…", "About Acme", "the position at Acme", "Senior Engineer at Acme"),
// and the rules below look for those phrasings on one line at a time: a name never runs over a
// line break, and no section heading ("Requirements", "About us") can become part of a name.
import { clean, isSectionName } from './sections.ts';
import { titleCase } from './text.ts';
import { COMPANY_STOP, LEADING_NOISE, ROLE_RE, SKILLS } from './vocabulary.ts';

/** One to four capitalised words on one line, joined by "of", "and" or "&": "Bank of Ireland". */
const NAME = "[A-Z][\\w&.'’-]*(?:[ \\t]+(?:(?:of|and|&|de|la|du)[ \\t]+)?[A-Z0-9][\\w&.'’-]*){0,3}";
const CORPORATE =
  /\b(?:Inc|Ltd|LLC|GmbH|AG|SA|SAS|BV|Corp|Corporation|Co|Company|Group|Labs|Technologies|Systems|Bank|Health|Holdings|Partners)\b\.?$/;
/** Words that make a capitalised phrase something other than a company. */
const NOT_A_NAME =
  /\b(?:requirements?|responsibilit\w*|qualifications?|benefits|perks|about|role|team|us|remote|hybrid|on-?site|location|salary|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b/i;

/** The text with Markdown emphasis removed, so "**Job Title:** Designer" reads as a label. */
function plain(text: string): string {
  return text.replace(/\*\*|__/g, '');
}

function stripNoise(title: string): string {
  let result = title.trim();
  while (LEADING_NOISE.test(result)) result = result.replace(LEADING_NOISE, '');
  return result;
}

/** The job title the text is about: a "Job title:" label, a phrase like "hiring a …", a title line. */
export function findRole(source: string): string | null {
  const text = plain(source);
  const labelled = /^[ \t]*(?:job[ \t]*title|position|role|title)[ \t]*[:\-–][ \t]*([^\n]{3,80})/im.exec(
    text,
  );
  if (labelled)
    return titleCase(
      clean(labelled[1]!)
        .replace(/\s*\(.*?\)\s*/g, ' ')
        .trim(),
    );
  const phrases = [
    /\b(?:hiring|recruiting|looking for|seeking|searching for)[ \t]+(?:an?|our|the)?[ \t]*([^\n.,;:!]{3,80})/i,
    /\b(?:interview(?:ing)?|practice|prepare|preparing|applying|applied)[ \t]+(?:for|as|to)[ \t]+(?:an?|the|my)?[ \t]*([^\n.,;:!]{3,80})/i,
    /\b(?:role|position|job)[ \t]+(?:of|as)[ \t]+(?:an?|the)?[ \t]*([^\n.,;:!]{3,80})/i,
    /\bas[ \t]+(?:an?|the)[ \t]+([^\n.,;:!]{3,80})/i,
    /^[ \t]*#[ \t]+([^\n]{3,80})/m,
  ];
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !isSectionName(line))
    .slice(0, 4);
  const candidates = [...phrases.map((pattern) => pattern.exec(text)?.[1]), ...lines];
  for (const candidate of candidates) {
    const role = candidate ? ROLE_RE.exec(candidate) : null;
    const title = role ? stripNoise(role[0]!) : '';
    if (title && title.split(/\s+/).length <= 6) return titleCase(title);
  }
  const anywhere = ROLE_RE.exec(text);
  const title = anywhere ? stripNoise(anywhere[0]!) : '';
  return title && title.split(/\s+/).length <= 5 ? titleCase(title) : null;
}

function asCompany(raw: string | undefined): string | null {
  if (!raw) return null;
  const name = clean(raw)
    .replace(/['’]s$/, '')
    .replace(/[\s,.;:!]+$/, '');
  if (!name || COMPANY_STOP.test(name) || NOT_A_NAME.test(name) || ROLE_RE.test(name)) return null;
  if (isSectionName(name) || SKILLS.some((skill) => skill.toLowerCase() === name.toLowerCase())) return null;
  return name;
}

/** A name that is only credible when the text uses it again, or it reads like a company. */
function recurs(name: string, text: string): boolean {
  return CORPORATE.test(name) || text.split(name).length > 2;
}

/** The company the text is about, or null when it names none: never invented. */
export function findCompany(source: string): string | null {
  const text = plain(source);
  const sure = [
    /^[ \t]*(?:company(?:[ \t]+name)?|employer|organi[sz]ation|client)[ \t]*[:\-–][ \t]*([^\n]{2,60})$/im,
    new RegExp(
      `\\b(${NAME})[ \\t]+(?:is|are)[ \\t]+(?:now[ \\t]+)?(?:hiring|looking|seeking|growing|recruiting)\\b`,
    ),
    new RegExp(`\\b[Aa]t[ \\t]+(${NAME}),?[ \\t]+(?:we|our)\\b`),
    new RegExp(`\\b[Jj]oin[ \\t]+(?:us[ \\t]+at[ \\t]+|the[ \\t]+team[ \\t]+at[ \\t]+)?(${NAME})`),
    new RegExp(
      `\\b(?:position|role|job|opening|vacancy|interview|team|career|internship)[ \\t]+(?:at|with)[ \\t]+(${NAME})`,
    ),
    new RegExp(`^[ \\t]*(?:#+[ \\t]*)?[Aa]bout[ \\t]+(${NAME})[ \\t]*:?[ \\t]*$`, 'm'),
  ];
  for (const pattern of sure) {
    const name = asCompany(pattern.exec(text)?.[1]);
    if (name) return name;
  }
  // A title line: "Senior Engineer at Acme", "Senior Engineer — Acme Corp", "Acme | Designer".
  for (const line of text.split('\n').slice(0, 6)) {
    if (!ROLE_RE.test(line)) continue;
    const at = new RegExp(`(?:[ \\t]at|@)[ \\t]+(${NAME})[ \\t]*(?:\\(|$)`).exec(line)?.[1];
    const beside =
      new RegExp(`[ \\t][—–|-][ \\t]+(${NAME})[ \\t]*(?:\\(|$)`).exec(line)?.[1] ??
      new RegExp(`^[ \\t]*(${NAME})[ \\t]+[—–|-][ \\t]`).exec(line)?.[1];
    const name = asCompany(at) ?? (beside && recurs(beside, text) ? asCompany(beside) : null);
    if (name && !ROLE_RE.test(name)) return name;
  }
  // A first line that is only a name, followed by the job title: "Acme Corp\nSenior Engineer".
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const first = lines.findIndex((line) => new RegExp(`^${NAME}$`).test(line));
  if (first >= 0 && first < 3 && lines[first + 1] && ROLE_RE.test(lines[first + 1]!)) {
    const name = asCompany(lines[first]);
    if (name && recurs(name, text)) return name;
  }
  // Last, "at/for Acme" inside a sentence; "with Dana" is as often a person or a tool, so a
  // name after "with" must recur or read like a company.
  const inSentence = new RegExp(
    `\\b(at|with|for)[ \\t]+(${NAME})(?:[,.;:!]|[ \\t]+(?:as|in|where|who|which|and|to|for|on|about)\\b|[ \\t]*$)`,
    'gm',
  );
  for (const match of text.matchAll(inSentence)) {
    const name = asCompany(match[2]);
    if (name && (match[1] !== 'with' || recurs(name, text))) return name;
  }
  return null;
}
