"""A meeting's own language model for the PocketSphinx sidecar (docs/speech.md, "Meeting vocabulary").

The general US English model knows what people say in general; a meeting knows more: its
scenario's names, products and jargon, and how they are used together. From the scenario's text
(prompt, goals, persona, welcome) plus a corpus of ordinary meeting talk (meeting-talk.txt) this
builds a trigram model with Witten-Bell smoothing, written as ARPA text for PocketSphinx to load,
and finds a pronunciation for every word the dictionary lacks: a compound of dictionary words
("FlowLedger" = flow + ledger), a possessive or plural of one, else festival's letter-to-sound
rules when festival is installed. A word with no pronunciation is left out of the model.

Standard library only.
"""

import math
import os
import re
import shutil
import subprocess
from collections import defaultdict

ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SCALES = ((1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand"), (100, "hundred"))


def number_words(n):
    """An integer as spoken ("two thousand four hundred twelve"), up to the billions."""
    if n < 20:
        return [ONES[n]]
    if n < 100:
        return [TENS[n // 10]] + ([ONES[n % 10]] if n % 10 else [])
    for scale, name in SCALES:
        if n >= scale:
            head = number_words(n // scale) + [name]
            return head + (number_words(n % scale) if n % scale else [])
    return []


def spoken_number(token):
    """'18' → eighteen, '2026' → twenty twenty six, '4.5' → four point five, '1,200' → one thousand two hundred."""
    digits = token.replace(",", "")
    whole, _, fraction = digits.partition(".")
    if not whole.isdigit() or (fraction and not fraction.isdigit()):
        return []
    value = int(whole)
    if len(whole) == 4 and 1100 <= value <= 2099 and value % 100 != 0 and "," not in token and not fraction:
        # A year is read in pairs: the way people say it, and so the way they will say it back.
        words = number_words(value // 100) + (["oh"] if value % 100 < 10 else []) + number_words(value % 100)
    elif len(whole) > 12:
        words = [ONES[int(d)] for d in whole]
    else:
        words = number_words(value)
    if fraction:
        words += ["point"] + [ONES[int(d)] for d in fraction]
    return words


SYMBOLS = {"%": "percent", "&": "and", "+": "plus", "@": "at", "=": "equals"}
# Markdown and list furniture at the start of a line: headings, bullets, "1." or "2)".
LINE_PREFIX = re.compile(r"^\s*(?:#+|[-*•>]+|\d+[.)])\s*")
TOKEN = re.compile(r"\$?\d[\d,]*(?:\.\d+)?%?|[a-z]+(?:'[a-z]+)*|[%&+@=]")
SENTENCE_END = re.compile(r"[.!?;:()\[\]\"“”]+(?:\s|$)|\n")


# Written abbreviations said in full. A title only before a name ("Dr. Patel", "St Ives"; "MS" or
# "Main St." are left alone); the others wherever they are written with their period.
TITLES = {"dr": "doctor", "mr": "mister", "mrs": "missus", "ms": "miz", "prof": "professor", "st": "saint"}
TITLE = re.compile(r"\b(Dr|Mr|Mrs|Ms|Prof|St)\.?\s+(?=[A-Z])")
ABBREVIATIONS = {"vs": "versus", "etc": "et cetera", "approx": "approximately", "e.g": "for example", "i.e": "that is"}
ABBREVIATION = re.compile(r"\b(vs|etc|approx|e\.g|i\.e)\.", re.IGNORECASE)


def spelled_out(line):
    """The line with its abbreviations as they are said (and no period that would end a sentence)."""
    line = TITLE.sub(lambda match: TITLES[match.group(1).lower()] + " ", line)
    return ABBREVIATION.sub(lambda match: ABBREVIATIONS[match.group(1).lower()], line)


def sentences_of(text):
    """The text as spoken word sequences, one per sentence, line or list item."""
    result = []
    for line in text.splitlines():
        line = spelled_out(LINE_PREFIX.sub("", line.replace("’", "'")))
        for part in SENTENCE_END.split(line):
            words = words_of(part)
            if words:
                result.append(words)
    return result


def words_of(text):
    words = []
    # "FlowLedger" and "iPhone" stay one word; "co-founder" and "e-mail" become two.
    for token in TOKEN.findall(text.lower().replace("-", " ").replace("/", " ")):
        if token in SYMBOLS:
            words.append(SYMBOLS[token])
        elif token[0] == "$" or token[0].isdigit():
            words += spoken_number(token.strip("$%"))
            if token.endswith("%"):
                words.append("percent")
            if token.startswith("$"):
                words.append("dollars")
        else:
            words.append(token)
    return words


def witten_bell_arpa(sentences, path):
    """A trigram model of the sentences in ARPA format, Witten-Bell interpolated, written to path."""
    counts = [defaultdict(int), defaultdict(int), defaultdict(int)]
    for words in sentences:
        padded = ["<s>"] + words + ["</s>"]
        for n in (1, 2, 3):
            for i in range(len(padded) - n + 1):
                gram = tuple(padded[i : i + n])
                if gram != ("<s>",):
                    counts[n - 1][gram] += 1
    vocabulary = sorted({gram[0] for gram in counts[0]} | {"<s>"})
    followers = [defaultdict(set), defaultdict(set)]  # history → distinct next words
    history_total = [defaultdict(int), defaultdict(int)]
    for n in (2, 3):
        for gram, count in counts[n - 1].items():
            followers[n - 2][gram[:-1]].add(gram[-1])
            history_total[n - 2][gram[:-1]] += count

    total = sum(counts[0].values())
    # Unigrams: maximum likelihood, smoothed toward uniform so every word keeps some mass.
    uniform = 1.0 / (len(vocabulary) - 1)  # <s> is never predicted
    types = len(counts[0])
    unigram = {
        word: (counts[0].get((word,), 0) + types * uniform) / (total + types) for word in vocabulary
    }
    unigram["<s>"] = 0.0

    probs = [dict(((w,), p) for w, p in unigram.items()), {}, {}]
    for n in (2, 3):
        for gram, count in counts[n - 1].items():
            history = gram[:-1]
            seen, distinct = history_total[n - 2][history], len(followers[n - 2][history])
            weight = seen / (seen + distinct)
            lower = lower_probability(probs, gram[1:], followers, history_total)
            probs[n - 1][gram] = weight * count / seen + (1 - weight) * lower
    # With Witten-Bell the mass left to unseen words after a history is T / (c + T), which is
    # exactly the ARPA back-off weight of that history.
    backoffs = [{}, {}]
    for n in (1, 2):
        for history, nexts in followers[n - 1].items():
            seen = history_total[n - 1][history]
            backoffs[n - 1][history] = len(nexts) / (seen + len(nexts))

    with open(path, "w", encoding="utf-8") as out:
        out.write("\\data\\\n")
        for n in (1, 2, 3):
            out.write(f"ngram {n}={len(probs[n - 1])}\n")
        for n in (1, 2, 3):
            out.write(f"\n\\{n}-grams:\n")
            for gram, p in sorted(probs[n - 1].items()):
                line = f"{log10(p):.6f}\t{' '.join(gram)}"
                if n < 3:
                    bow = backoffs[n - 1].get(gram)
                    if bow is not None:
                        line += f"\t{log10(bow):.6f}"
                    elif n == 1:
                        line += "\t0.000000"
                out.write(line + "\n")
        out.write("\n\\end\\\n")
    return [word for word in vocabulary if word not in ("<s>", "</s>")]


def lower_probability(probs, gram, followers, history_total):
    """P(w | shorter history), interpolated the same way (the model's own lower order)."""
    if len(gram) == 1:
        return probs[0][gram]
    found = probs[len(gram) - 1].get(gram)
    if found is not None:
        return found
    history = gram[:-1]
    seen_mass = history_total[len(gram) - 2].get(history)
    if not seen_mass:
        return lower_probability(probs, gram[1:], followers, history_total)
    distinct = len(followers[len(gram) - 2][history])
    return distinct / (seen_mass + distinct) * lower_probability(probs, gram[1:], followers, history_total)


def log10(p):
    return math.log10(p) if p > 0 else -99.0


LETTERS = {
    "a": "EY", "b": "B IY", "c": "S IY", "d": "D IY", "e": "IY", "f": "EH F", "g": "JH IY",
    "h": "EY CH", "i": "AY", "j": "JH EY", "k": "K EY", "l": "EH L", "m": "EH M", "n": "EH N",
    "o": "OW", "p": "P IY", "q": "K Y UW", "r": "AA R", "s": "EH S", "t": "T IY", "u": "Y UW",
    "v": "V IY", "w": "D AH B AH L Y UW", "x": "EH K S", "y": "W AY", "z": "Z IY",
}
VOICELESS = {"P", "T", "K", "F", "TH"}
SIBILANT = {"S", "Z", "SH", "ZH", "CH", "JH"}
ACRONYM = re.compile(r"\b[A-Z]{2,5}s?\b")


class Pronouncer:
    """Pronunciations (CMU phones) for words the dictionary lacks."""

    def __init__(self, dictionary_path):
        self.known = {}
        with open(dictionary_path, encoding="utf-8") as lines:
            for line in lines:
                word, _, phones = line.strip().partition(" ")
                if word and "(" not in word:
                    self.known[word] = phones.strip()
        self.festival = shutil.which("festival")

    def missing(self, words, text):
        """{word: phones} for the words the dictionary lacks; a word nothing can pronounce is absent."""
        acronyms = {token.lower().rstrip("s") for token in ACRONYM.findall(text)}
        found, guess = {}, []
        for word in words:
            if word in self.known:
                continue
            if word in acronyms:
                phones = self.spelled(word)
            elif word.endswith("s") and word[:-1] in acronyms:
                phones = self.spelled(word[:-1]) + " Z"  # "KPIs"
            else:
                phones = self.composed(word)
            if phones:
                found[word] = phones
            else:
                guess.append(word)
        found.update(self.letter_to_sound(guess))
        return found

    def spelled(self, word):
        return " ".join(LETTERS[letter] for letter in word if letter in LETTERS)

    def composed(self, word):
        """A possessive, plural or compound of dictionary words: "linda's", "flowledger"."""
        best = self.split(word.replace("'", ""), 3)
        if best:
            return " ".join(self.known[part] for part in best)
        base = word[:-2] if word.endswith("'s") else word[:-1] if word.endswith("s") else None
        parts = base and self.split(base, 3)
        if not parts:
            return None
        phones = " ".join(self.known[part] for part in parts)
        last = phones.split()[-1]
        suffix = "IH Z" if last in SIBILANT else "S" if last in VOICELESS else "Z"
        return f"{phones} {suffix}"

    def split(self, word, parts_left):
        """The split into the fewest dictionary words of three letters or more, or None."""
        if word in self.known and len(word) >= 3:
            return [word]
        if parts_left == 1:
            return None
        best = None
        for cut in range(3, len(word) - 2):
            head = word[:cut]
            if head not in self.known:
                continue
            rest = self.split(word[cut:], parts_left - 1)
            if rest and (best is None or len(rest) + 1 < len(best)):
                best = [head] + rest
        return best

    def letter_to_sound(self, words):
        """festival's US English lexicon and letter-to-sound rules, when festival is installed."""
        words = [word for word in words if re.fullmatch(r"[a-z']+", word)]
        if not words or not self.festival:
            return {}
        script = "".join(f'(print (lex.lookup "{word}" nil))\n' for word in words)
        try:
            run = subprocess.run(
                [self.festival, "--pipe"], input=script, capture_output=True, text=True, timeout=20,
                env={key: value for key, value in os.environ.items() if key in ("PATH", "HOME", "LANG")},
            )
        except (OSError, subprocess.SubprocessError):
            return {}
        found = {}
        for line in run.stdout.splitlines():
            match = re.match(r'\("([^"]+)" \S+ \((.*)\)\)\s*$', line.strip())
            if not match:
                continue
            phones = re.findall(r"[a-z]+", re.sub(r"\)\s*\d", ")", match.group(2)))
            mapped = [("AH" if phone == "ax" else phone.upper()) for phone in phones]
            if mapped:
                found[match.group(1)] = " ".join(mapped)
        return found
