#!/usr/bin/env python3
"""Agreement check of English sentences with CMU's link grammar parser (issue 27, item 2).

Reads sentences on stdin, as a JSON array of strings or as JSON lines (one string, or an object
with a "text" field, per line), parses each with link-grammar's English dictionary and prints one
JSON object on stdout:

  {"checked": n, "errors": [{"sentence", "clause", "fix", "nulls", "nullsFixed"}],
   "unparsed": [{"sentence", "nulls"}]}

How it decides. Link-grammar leaves out ("null links") the words it cannot fit into a complete
linkage, but it also leaves out words of perfectly good sentences it finds hard (fragments, lists,
figures, names, colloquial lead-ins), so an unlinked word alone is no error. Each sentence is cut
into clauses at commas, colons, semicolons, brackets and dashes (after light normalisation of
quotes, dashes and ellipses), and a clause is an agreement error only when changing ONE word to
its agreeing form makes the parser link it:

  - pronoun case (I/me, he/him, she/her, we/us, they/them);
  - be, have and do (am/is/are, was/were, has/have, does/do and their negatives) after a subject
    pronoun, after "and" with one earlier in the clause, or next to a word the parser left out;
  - any other verb with or without its -s, after a subject pronoun and next to a left-out word,
    when the parser then links it as a verb it knows;

and the changed clause links completely (or, when the changed word was itself left out, links it
and its neighbours, leaving out only words further away), through no costlier rules than
link-grammar's default limit. Also an error: a clause linked only through costly rules that one such change
(a verb after its subject pronoun, or an object pronoun made a subject) links as fully and at
least 2.0 more cheaply ("I wants a discount." links at 2.95, as if "I" were a quotation's
speaker; "I want a discount." at 0). The best change is reported as the fix. Sentences with
unlinked words and no such fix are listed under "unparsed" and are not errors.

Known limits: link-grammar accepts some wrong clauses ("the boiler is 20 years old and me know it"
reads "old and me" as a list; "my renewal are due" links), and a clause it finds hard even when
correct hides its error ("I were charged $480 for a knee X-ray that my insurance").

Run with --demo to see the verdicts on a handful of correct and incorrect sentences.
Needs Debian's python3-link-grammar and link-grammar-dictionaries-en (scripts/ensure-grammar.sh);
run it with /usr/bin/python3, which sees Debian's dist-packages.
"""

import json
import os
import re
import sys

# link-grammar writes diagnostics ("Debug: Dictionary ... Locale unknown") to stdout while it
# loads: send them to stderr and keep stdout for the JSON answer.
_stdout = os.fdopen(os.dup(1), "w", encoding="utf-8")
os.dup2(2, 1)

import linkgrammar as lg  # noqa: E402

DEMO = [
    "I has three depots.",
    "me pay for 220 seats",
    "She are upset about the bill.",
    "I got a bill me think is wrong.",
    "How do me decide what goes on the roadmap?",
    "I have been a patient at Brookside for 9 years and is usually easygoing.",
    "What me want is a discount.",
    "My team need the report by Friday, and he don't agree.",
    "They has a plan.",
    "I wants a discount.",
    "I run three depots.",
    "We pay £42,000 a year.",
    "We pay $42,000 a year — that's 18 % more than last year.",
    "Spent 15 years as an engineering leader.",
    "Honestly, I'm not sure.",
    "Take care, bye now.",
    "My name is Margaret Okafor and I run FlowLedger's finance team.",
    "Q3 numbers: 14 % churn, 2.3x pipeline.",
    "Like I mentioned, hybrid, 2 days a week in the Lisbon office.",
    "As I mentioned: an on-prem ServiceDesk install from 2011.",
    "Next question: what is one concrete thing you will try the next time it comes up?",
]

# The agreeing forms tried for pronouns and for be, have and do.
SWAPS = {
    "i": ["me"],
    "me": ["I"],
    "he": ["him"],
    "him": ["he"],
    "she": ["her"],
    "her": ["she"],
    "we": ["us"],
    "us": ["we"],
    "they": ["them"],
    "them": ["they"],
    "am": ["is", "are"],
    "is": ["am", "are"],
    "are": ["am", "is"],
    "was": ["were"],
    "were": ["was"],
    "has": ["have"],
    "have": ["has"],
    "does": ["do"],
    "do": ["does"],
    "isn't": ["aren't"],
    "aren't": ["isn't"],
    "wasn't": ["weren't"],
    "weren't": ["wasn't"],
    "hasn't": ["haven't"],
    "haven't": ["hasn't"],
    "doesn't": ["don't"],
    "don't": ["doesn't"],
}

PRONOUNS = {"i", "me", "he", "him", "she", "her", "we", "us", "they", "them"}
SUBJECTS = {"i", "he", "she", "it", "we", "you", "they"}
# The form of be a subject pronoun takes: tried first when a form of be is swapped after it.
AGREEING_BE = {"i": "am", "he": "is", "she": "is", "it": "is", "we": "are", "you": "are", "they": "are"}

# Adverbs that may stand between a subject and its verb ("I only found out", "she usually is").
ADVERBS = {
    "also", "just", "only", "really", "usually", "still", "never", "always", "often", "actually",
    "currently", "already", "sometimes", "probably", "mostly", "not", "even", "then", "now",
}
# The highest disjunct cost of a fix's linkage (link-grammar's default limit is 2.7).
MAX_FIX_COST = 2.7
# A one-word change that links as many words at least this much more cheaply also counts.
COST_GAIN = 2.0

WORD = re.compile(r"^([^A-Za-z0-9']*)([A-Za-z][A-Za-z']*)([^A-Za-z0-9']*)$")


def normalise(sentence):
    s = sentence.replace("\u2019", "'").replace("\u2018", "'")
    s = re.sub(r"[\u201c\u201d\"]", "", s)
    s = re.sub(r"\s*(\u2014|\u2013|--|\s-\s)\s*", ", ", s)
    s = re.sub(r"\s*(\u2026|\.\.\.)\s*", ", ", s)
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"^,\s*|,\s*$", "", s)
    return s


class Checker:
    def __init__(self):
        self.dictionary = lg.Dictionary("en")
        self.options = lg.ParseOptions(
            verbosity=0,
            linkage_limit=100,
            min_null_count=0,
            max_null_count=250,
            max_parse_time=5,
        )

    def known(self, word):
        return bool(lg.Clinkgrammar.dictionary_word_is_known(self.dictionary._obj, word))

    def parse(self, text):
        """(null count, the best linkage's words by whitespace token of text, its cost), or None when the parser gives up."""
        try:
            sentence = lg.Sentence(text, self.dictionary, self.options)
            linkages = sentence.parse()
            nulls = sentence.null_count()
            linkage = next(iter(linkages))
            words, cost = linkage.words(), linkage.disjunct_cost()
        except (lg.LG_Error, StopIteration):
            return None
        return nulls, by_token(text.split(), words), cost

    def forms(self, word):
        """Agreeing forms of a verb or noun: with or without its -s, when the dictionary knows them."""
        low = word.lower()
        out = []
        if low.endswith("ies"):
            out.append(low[:-3] + "y")
        if low.endswith("es"):
            out.append(low[:-2])
        if low.endswith("s") and not low.endswith("ss"):
            out.append(low[:-1])
        else:
            if low.endswith("y") and len(low) > 2 and low[-2] not in "aeiou":
                out.append(low[:-1] + "ies")
            out.append(low + ("es" if re.search(r"(s|x|z|ch|sh)$", low) else "s"))
        return [f for f in dict.fromkeys(out) if f != low and self.known(f)]

    def check(self, sentence):
        """None when fine, {"sentence", "fix", ...} for an agreement error, {"sentence", "nulls"} when unlinked."""
        unlinked = 0
        for clause in clauses(normalise(sentence)):
            parsed = self.parse(clause)
            if parsed is None:
                unlinked = max(unlinked, 1)
                continue
            nulls, words, cost = parsed
            fix = self.agreement_fix(clause, nulls, words, cost)
            if fix is not None:
                return {
                    "sentence": sentence,
                    "clause": clause,
                    "fix": fix[3],
                    "nulls": nulls,
                    "nullsFixed": fix[0],
                }
            if nulls > 0:
                unlinked = max(unlinked, nulls)
        return {"sentence": sentence, "nulls": unlinked} if unlinked else None

    def agreement_fix(self, clause, nulls, words, cost):
        """(null count, cost, kind, fixed clause) of the best one-word agreement change, or None."""
        tokens = clause.split()
        left_out = [i for i, w in words.items() if w.startswith("[") and w.endswith("]")]
        near = {j for i in left_out for j in (i - 1, i, i + 1) if 0 <= j < len(tokens)}
        if nulls == 0:
            near = set(range(len(tokens)))
        cheaper = cost - COST_GAIN
        lows = [(WORD.match(t).group(2).lower() if WORD.match(t) else "") for t in tokens]
        best = None
        for i, token in enumerate(tokens):
            m = WORD.match(token)
            if not m:
                continue
            lead, word, tail = m.groups()
            low = lows[i]
            subject = subject_before(lows, i)
            if low in PRONOUNS:
                kind, alternatives = 1, SWAPS[low]
            elif low in SWAPS and subject is None and i > 0 and i in near:
                # be/have/do after a noun ("my renewal are due"), next to a word the parser left out.
                kind, alternatives = 0, SWAPS[low]
            elif subject is None:
                # Otherwise a verb's form is only questioned right after a subject pronoun, or after
                # "and" with a subject pronoun earlier in the clause ("I have been … and is easygoing").
                continue
            elif low in SWAPS:
                kind = 0
                alternatives = sorted(SWAPS[low], key=lambda a: a != AGREEING_BE.get(subject))
            elif i in near:
                # Any other verb, with or without its -s, only next to a word the parser left out.
                kind, alternatives = 2, self.forms(word)
            else:
                continue
            for alt in alternatives:
                capital = word[0].isupper() and (word != "I" or i == 0)
                if alt != "I":
                    alt = alt[0].upper() + alt[1:] if capital else alt.lower()
                fixed = " ".join(tokens[:i] + [lead + alt + tail] + tokens[i + 1 :])
                reparsed = self.parse(fixed)
                if reparsed is None:
                    continue
                fixed_nulls, fixed_words, fixed_cost = reparsed
                # The change must link the clause completely, or, for a be/have/do or pronoun the parser
                # left out, link it and its neighbours, leaving out only words further away ("I have 20
                # minutes before a governors' meeting" still leaves the apostrophe out).
                still_out = [j for j, w in fixed_words.items() if w.startswith("[")]
                partial = (
                    kind < 2
                    and i in left_out
                    and 0 < fixed_nulls < nulls
                    and "[" not in fixed_words.get(i, "[")
                    and all(abs(j - i) > 1 for j in still_out)
                )
                # Or, as many words linked, far more cheaply: "I wants a discount." links, but only as if
                # "I" were a quotation's speaker (cost 2.95); "I want a discount." links at cost 0.
                # Only for a verb right after its subject pronoun, or an object pronoun made a subject.
                to_subject = kind == 1 and low not in SUBJECTS and i + 1 < len(tokens)
                cheap = (
                    (to_subject or (kind != 1 and subject in SUBJECTS))
                    and fixed_nulls <= nulls
                    and fixed_cost <= cheaper
                )
                if not (cheap or (fixed_nulls < nulls and (fixed_nulls == 0 or partial))):
                    continue
                # Linked only through the parser's costliest rules, a change is the parser guessing.
                if fixed_cost > MAX_FIX_COST:
                    continue
                # A verb with or without its -s counts only when the parser then links it as a known
                # verb ("maybe" -> "maybes", guessed as a verb from its -s, is no agreement fix).
                if kind == 2 and not re.match(r"^[A-Za-z']+\.v(-d|-g)?$", fixed_words.get(i, "")):
                    continue
                if best is None or (fixed_nulls, fixed_cost, kind) < best[:3]:
                    best = (fixed_nulls, fixed_cost, kind, fixed)
        return best


def by_token(tokens, words):
    """The parser's words mapped back onto whitespace tokens, in order: {0: "I.p", 1: "[has]", ...}.
    A token split by the parser ("I'm", "$480") keeps its first word."""
    cores = [(WORD.match(t).group(2) if WORD.match(t) else t).lower() for t in tokens]
    out = {}
    t = 0
    for w in words:
        if w in ("LEFT-WALL", "RIGHT-WALL"):
            continue
        bare = (re.sub(r"\.[a-z-]*$|\[[!?~].*$", "", w.strip("[]")) or w).lower()
        if not re.match(r"[a-z]", bare):
            continue
        for k in range(t, min(t + 3, len(tokens))):
            if cores[k] == bare or cores[k].startswith(bare + "'"):
                out.setdefault(k, w)
                t = k + 1
                break
    return out


def subject_before(lows, i):
    """The subject pronoun just before word i (skipping adverbs; an object pronoun counts, "me pay"),
    or, after "and"/"but", the last subject pronoun before it in the clause; None when there is none."""
    j = i - 1
    while j >= 0 and lows[j] in ADVERBS:
        j -= 1
    if j >= 0 and lows[j] in SUBJECTS | PRONOUNS:
        return lows[j]
    if j >= 0 and lows[j] in ("and", "but"):
        return next((w for w in reversed(lows[:j]) if w in SUBJECTS), None)
    return None


def clauses(text):
    """The text cut at commas, colons, semicolons, brackets and dashes: fragments and lead-ins
    ("Like I mentioned,", "Next question:") are parsed apart from the clause that carries the fact."""
    parts = re.split(r"[,;:]\s+|\s*[()\[\]]\s*|\s+[—–-]\s+", text)
    out = []
    for part in parts:
        part = re.sub(r"^(and|but|so|or)\s+", "", part.strip(" ,;:"), flags=re.IGNORECASE)
        if len(part.split()) >= 2:
            out.append(part if part[-1] in ".?!" else part + ".")
    return out


def read_sentences(raw):
    raw = raw.strip()
    if not raw:
        return []
    if raw.startswith("["):
        items = json.loads(raw)
    else:
        items = [json.loads(line) for line in raw.splitlines() if line.strip()]
    return [item["text"] if isinstance(item, dict) else str(item) for item in items]


def main():
    checker = Checker()
    sys.stdout.flush()
    sys.stdout = _stdout
    demo = "--demo" in sys.argv[1:]
    sentences = DEMO if demo else read_sentences(sys.stdin.read())
    errors, unparsed = [], []
    for sentence in dict.fromkeys(sentences):
        verdict = checker.check(sentence)
        if verdict is None:
            if demo:
                print(f"ok        {sentence}")
        elif "fix" in verdict:
            errors.append(verdict)
            if demo:
                print(f"ERROR     {sentence}\n          fix: {verdict['fix']}")
        else:
            unparsed.append(verdict)
            if demo:
                print(f"unparsed  {sentence} ({verdict['nulls']} words unlinked; no agreement fix)")
    if not demo:
        json.dump({"checked": len(sentences), "errors": errors, "unparsed": unparsed}, sys.stdout)
        sys.stdout.write("\n")


if __name__ == "__main__":
    main()
