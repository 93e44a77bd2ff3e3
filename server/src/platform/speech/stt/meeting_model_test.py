"""Unit tests of meeting_model.py (run by server/test/speech/meeting-model.test.ts)."""

import math
import os
import re
import tempfile
import unittest

import meeting_model as model

MODEL_DICT = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"


def read_arpa(path):
    """{order: {gram: (log10 prob, log10 backoff or None)}}"""
    grams, order = {1: {}, 2: {}, 3: {}}, None
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            header = re.match(r"\\(\d)-grams:", line.strip())
            if header:
                order = int(header.group(1))
                continue
            fields = line.rstrip("\n").split("\t")
            if order and len(fields) >= 2:
                grams[order][tuple(fields[1].split())] = (float(fields[0]), float(fields[2]) if len(fields) > 2 else None)
    return grams


def probability(grams, words):
    """P(last | history) by the ARPA back-off rule."""
    found = grams[len(words)].get(tuple(words))
    if found:
        return 10 ** found[0]
    backoff = grams[len(words) - 1].get(tuple(words[:-1]), (0, 0))[1] or 0
    return 10 ** backoff * probability(grams, words[1:])


class SpokenText(unittest.TestCase):
    def test_numbers_are_said_as_words(self):
        self.assertEqual(model.spoken_number("18"), ["eighteen"])
        self.assertEqual(model.spoken_number("1,200"), ["one", "thousand", "two", "hundred"])
        self.assertEqual(model.spoken_number("2026"), ["twenty", "twenty", "six"])
        self.assertEqual(model.spoken_number("4.5"), ["four", "point", "five"])
        self.assertEqual(model.number_words(305), ["three", "hundred", "five"])

    def test_markdown_lists_and_symbols_become_sentences(self):
        text = "## About you\n- Prices rose 18% at FlowLedger.\n2) Ask about the $40 fee & the co-pay."
        self.assertEqual(
            model.sentences_of(text),
            [
                ["about", "you"],
                ["prices", "rose", "eighteen", "percent", "at", "flowledger"],
                ["ask", "about", "the", "forty", "dollars", "fee", "and", "the", "co", "pay"],
            ],
        )

    def test_abbreviations_are_said_in_full_and_do_not_end_a_sentence(self):
        text = "Pickles saw Dr. Abernathy and Mr Lee, e.g. on Tuesday vs. Friday.\nMS is on Main St. today."
        self.assertEqual(
            model.sentences_of(text),
            [
                "pickles saw doctor abernathy and mister lee for example on tuesday versus friday".split(),
                ["ms", "is", "on", "main", "st"],
                ["today"],
            ],
        )


class LanguageModel(unittest.TestCase):
    def setUp(self):
        self.path = tempfile.mktemp(suffix=".arpa")
        sentences = model.sentences_of(
            "The dispatchers plan the routes every morning. The drivers plan the loads.\n"
            "Routes change when a driver calls in sick. We plan every route by hand."
        )
        self.vocabulary = model.witten_bell_arpa(sentences, self.path)
        self.grams = read_arpa(self.path)

    def tearDown(self):
        os.remove(self.path)

    def test_every_history_is_a_distribution(self):
        words = self.vocabulary + ["</s>"]
        for history in (["<s>"], ["the"], ["<s>", "the"], ["plan", "the"], ["routes", "every"], ["sick"]):
            total = sum(probability(self.grams, history + [word]) for word in words)
            self.assertAlmostEqual(total, 1.0, places=3, msg=f"after {history}")

    def test_seen_continuations_beat_unseen_ones(self):
        self.assertGreater(probability(self.grams, ["plan", "the", "routes"]), probability(self.grams, ["plan", "the", "sick"]))
        self.assertGreater(probability(self.grams, ["<s>", "the"]), probability(self.grams, ["<s>", "sick"]))


@unittest.skipUnless(os.path.exists(MODEL_DICT), "the PocketSphinx US English dictionary is not installed")
class Pronunciations(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pronouncer = model.Pronouncer(MODEL_DICT)

    def test_known_words_need_nothing(self):
        self.assertEqual(self.pronouncer.missing(["the", "morning"], "the morning"), {})

    def test_compounds_possessives_and_acronyms_of_dictionary_words(self):
        found = self.pronouncer.missing(["flowledger", "routewise's", "kpis"], "FlowLedger, RouteWise's KPIs")
        self.assertEqual(found["flowledger"], "F L OW L EH JH ER")
        self.assertTrue(found["routewise's"].endswith(" IH Z"))
        self.assertEqual(found["kpis"], "K EY P IY AY Z")

    @unittest.skipUnless(model.shutil.which("festival"), "festival is not installed")
    def test_other_words_get_letter_to_sound_rules(self):
        found = self.pronouncer.missing(["zyphrix"], "Zyphrix")
        self.assertRegex(found["zyphrix"], r"^Z .* K S$")


if __name__ == "__main__":
    unittest.main()
