"""PocketSphinx sidecar of the Understudy service (stt/pocketsphinx.ts starts one per process).

Multiplexes recognition streams over stdin/stdout so the service pays the Python start-up and the
model load once, not per utterance.

In (stdin), frames: uint32 big-endian length N, then N bytes = kind (1 byte), stream id
(uint32 big-endian), payload. Kinds: 1 open (payload: empty, or JSON {"meeting": id, "context": key}),
2 audio (PCM s16le mono 16 kHz), 3 finish, 4 cancel, 5 context (stream id 0, payload JSON
{"key": key, "text": the scenario's text}: sent once before the first stream that names it).
Out (stdout), one JSON object a line: {"type": "ready"} once the first decoder is loaded, then
{"id": n, "type": "interim"|"final", "text": "..."} and {"id": n, "type": "error", "message": "..."}.

A decoder holds one utterance at a time and costs ~90 MB and ~0.3 s to load, so a small pool is
kept; streams beyond it wait with their audio buffered (at most argv[3] bytes each: more fails the
stream) and are decoded when a decoder frees up.

Each meeting is heard on its own (docs/speech.md, "Meeting vocabulary"): a stream that names a
context is decoded with the general model interpolated with that meeting's own model
(meeting_model.py) and a dictionary that holds its words; the running cepstral mean a decoder
adapts to a speaker is kept per meeting and restored before each of its utterances, so nothing one
meeting said shifts how another is heard. A decoder is prepared for exactly the context of the
stream it serves; the pool prefers one already prepared for it.

Arguments: model directory, decoders at most (default 3), audio bytes a waiting stream may buffer
(default 30 s), scenario contexts kept (default 32).
Standard library and pocketsphinx only (Debian's python3-pocketsphinx).
"""

import atexit
import json
import os
import shutil
import struct
import sys
import tempfile
import time
from collections import OrderedDict

from pocketsphinx import Decoder, NGramModel

import meeting_model
import sphinx_native

OPEN, AUDIO, FINISH, CANCEL, CONTEXT = 1, 2, 3, 4, 5
# A changed hypothesis is sent at most this often. The end of turn (live/voice/turn-end.ts) reads
# the interim text when the participant pauses: at 0.25 s the words just before a pause ("…and")
# were often not sent yet when the pause began to count.
INTERIM_EVERY_S = 0.1
IDLE_DECODER_TTL_S = 60.0
DEFAULT_MAX_WAITING_BYTES = 30 * 16000 * 2
# The meeting's own model's share of the interpolated language model (the general one has the rest).
MEETING_LM_WEIGHT = 0.3
DEFAULT_CONTEXTS_KEPT = 32
MEETINGS_KEPT = 2000
# How much the model's initial cepstral mean weighs against a meeting's first utterance (frames of
# 10 ms; PocketSphinx's own is 500): little, so that utterance's own mean takes over.
FIRST_UTTERANCE_PRIOR_FRAMES = 20
# Scenario searches a decoder keeps ready (~55 MB each); more scenarios at once rebuild the oldest.
SEARCHES_PER_DECODER = 2
# Gaussians scored per codebook and frame (PocketSphinx's default is 4 of the model's 128). 8 heard
# voices the model was not trained on better (speech set with context: festival diphone in-domain
# 123 -> 110 word errors, HTS 48 -> 45, Flite out-of-domain 85 -> 78) for ~14 % more CPU; 16 gained
# little more for +45 %.
TOP_GAUSSIANS = 8
MEETING_TALK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "meeting-talk.txt")


class QueueFull(Exception):
    pass


def log(message):
    sys.stderr.write(f"pocketsphinx sidecar: {message}\n")
    sys.stderr.flush()


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class Context:
    """One scenario's language model and the words it adds, built once and shared by its meetings."""

    def __init__(self, key, text, contexts):
        sentences = meeting_model.sentences_of(text) + contexts.meeting_talk
        self.key = key
        self.arpa = os.path.join(contexts.directory, f"{key}.arpa")
        words = meeting_model.witten_bell_arpa(sentences, self.arpa)
        self.extra = contexts.pronouncer().missing(words, text)

    def remove_files(self):
        try:
            os.remove(self.arpa)
        except OSError:
            pass


class Contexts:
    def __init__(self, model_dir, kept):
        self.kept = kept
        self.base_dictionary = os.path.join(model_dir, "cmudict-en-us.dict")
        self.directory = tempfile.mkdtemp(prefix="understudy-sphinx-")
        atexit.register(shutil.rmtree, self.directory, True)
        with open(MEETING_TALK, encoding="utf-8") as talk:
            lines = [line for line in talk if not line.startswith("#")]
        self.meeting_talk = meeting_model.sentences_of("".join(lines))
        self.entries = OrderedDict()
        self._pronouncer = None

    def pronouncer(self):
        if self._pronouncer is None:
            self._pronouncer = meeting_model.Pronouncer(self.base_dictionary)
        return self._pronouncer

    def add(self, key, text):
        if key in self.entries:
            self.entries.move_to_end(key)
            return
        self.entries[key] = Context(key, text, self)
        while len(self.entries) > self.kept:
            _, old = self.entries.popitem(last=False)
            old.remove_files()

    def get(self, key):
        # Least recently used goes first, in the same order as the service's record of what it
        # sent (sidecar.ts), so that the service sends a text again exactly when it was dropped.
        if key in self.entries:
            self.entries.move_to_end(key)
            return self.entries[key]
        return None


class PooledDecoder:
    """A decoder and what it is prepared for: scenarios' searches and words, a meeting's mean.

    Its dictionary only grows (the general one plus every prepared scenario's words): a word a
    search's language model does not hold is never part of that search, so extra words change
    nothing for the others (tested), and switching between prepared searches costs nothing, where
    reloading the dictionary costs ~0.2 s and rebuilding a search ~0.4 s.
    """

    def __init__(self, config, base_dictionary, directory):
        self.decoder = Decoder(config)
        self.general = self.decoder.get_lm("_default")
        self.base_dictionary = base_dictionary
        self.dictionary_path = os.path.join(directory, f"decoder-{id(self)}.dict")
        self.words = {}  # the words added to the general dictionary
        self.searches = OrderedDict()  # context key → search name, least recently used first
        self.native = True
        try:
            self.initial_cmn = sphinx_native.get_cmn(self.decoder)
        except sphinx_native.NativeUnavailable as error:
            log(f"recognising without meeting models: {error}")
            self.native = False

    def prepare(self, context, meeting, means):
        """Ready for one utterance of `meeting` in `context` (either may be None)."""
        if not self.native:
            return
        if context is None:
            self.decoder.set_search("_default")
        else:
            self.decoder.set_search(self._search_for(context))
        if meeting in means:
            sphinx_native.set_cmn(self.decoder, means[meeting])
        elif meeting:
            # A new meeting: the model's own mean, held lightly so that its first utterance sets
            # the mean (and is heard again with it, see Stream.final_text).
            sphinx_native.set_cmn(self.decoder, self.initial_cmn, FIRST_UTTERANCE_PRIOR_FRAMES)
        # A stream with no meeting (tests, tools) keeps the decoder's own running mean.

    def _search_for(self, context):
        if any(self.words.get(word) != phones for word, phones in context.extra.items()):
            self.words.update(context.extra)
            with open(self.dictionary_path, "w", encoding="utf-8") as out:
                with open(self.base_dictionary, encoding="utf-8") as base:
                    out.write(base.read())
                out.writelines(f"{word} {phones}\n" for word, phones in sorted(self.words.items()))
            self.decoder.load_dict(self.dictionary_path, None, "dict")
            # A reloaded dictionary leaves an interpolated search hearing nothing: build them again.
            self.searches.clear()
        name = self.searches.get(context.key)
        if name is None:
            if len(self.searches) >= SEARCHES_PER_DECODER:
                _, name = self.searches.popitem(last=False)  # its slot is rebuilt for this scenario
            else:
                name = f"meeting{len(self.searches)}"
            model = NGramModel(self.decoder.get_config(), self.decoder.get_logmath(), context.arpa)
            sphinx_native.set_interpolated_lm(self.decoder, name, self.general, model, MEETING_LM_WEIGHT)
        self.searches[context.key] = name
        self.searches.move_to_end(context.key)
        return name

    def forget(self):
        try:
            os.remove(self.dictionary_path)
        except OSError:
            pass

    def remember(self, meeting, means):
        """After an utterance: keep what the decoder learnt of this meeting's channel, for it alone."""
        if self.native and meeting:
            means[meeting] = sphinx_native.get_cmn(self.decoder)
            means.move_to_end(meeting)
            while len(means) > MEETINGS_KEPT:
                means.popitem(last=False)


class DecoderPool:
    def __init__(self, model_dir, max_decoders, directory):
        self.model_dir = model_dir
        self.directory = directory
        self.max_decoders = max_decoders
        self.idle = []  # (pooled decoder, idle since)
        self.busy = 0

    def _load(self):
        config = Decoder.default_config()
        config.set_string("-hmm", os.path.join(self.model_dir, "en-us"))
        config.set_string("-lm", os.path.join(self.model_dir, "en-us.lm.bin"))
        dictionary = os.path.join(self.model_dir, "cmudict-en-us.dict")
        config.set_string("-dict", dictionary)
        config.set_string("-logfn", os.devnull)
        config.set_int("-topn", TOP_GAUSSIANS)
        return PooledDecoder(config, dictionary, self.directory)

    def warm(self):
        self.idle.append((self._load(), time.monotonic()))

    def take(self, context_key=None):
        """An idle decoder (preferably one prepared for this context) or a new one; None when full."""
        if self.idle:
            at = next(
                (i for i in range(len(self.idle) - 1, -1, -1) if context_key in self.idle[i][0].searches),
                len(self.idle) - 1,
            )
            decoder, _ = self.idle.pop(at)
        elif self.busy < self.max_decoders:
            decoder = self._load()
        else:
            return None
        self.busy += 1
        return decoder

    def give_back(self, decoder):
        self.busy -= 1
        self.idle.append((decoder, time.monotonic()))

    def trim(self):
        # Keep one warm decoder; free the others after a quiet minute (~90 MB each).
        now = time.monotonic()
        keep = [entry for entry in self.idle if now - entry[1] < IDLE_DECODER_TTL_S]
        if not keep and self.idle:
            keep = [self.idle[-1]]
        for pooled, _ in self.idle:
            if all(pooled is not kept for kept, _ in keep):
                pooled.forget()
        self.idle = keep


class Stream:
    def __init__(self, stream_id, max_waiting_bytes, context=None, meeting=None, means=None):
        self.id = stream_id
        self.context = context
        self.meeting = meeting
        self.means = means
        self.pooled = None
        self.decoder = None
        self.in_utterance = False
        self.waiting_audio = []
        self.waiting_bytes = 0
        self.max_waiting_bytes = max_waiting_bytes
        self.finish_requested = False
        self.last_interim_at = 0.0
        self.last_interim = ""
        # A meeting's first utterance is decoded twice (see final_text); its audio is kept for that.
        self.first_heard = None

    def attach(self, pooled):
        pooled.prepare(self.context, self.meeting, self.means)
        self.pooled = pooled
        self.decoder = decoder = pooled.decoder
        if pooled.native and self.meeting and self.meeting not in self.means:
            self.first_heard = []
        decoder.start_utt()
        self.in_utterance = True
        for chunk in self.waiting_audio:
            self._process(chunk)
        self.waiting_audio = []
        self.waiting_bytes = 0

    def feed(self, pcm):
        if self.decoder is None:
            # All decoders are busy for longer than this stream can wait: fail it, do not hoard.
            if self.waiting_bytes + len(pcm) > self.max_waiting_bytes:
                seconds = self.max_waiting_bytes // 32000
                raise QueueFull(f"waited for a free decoder with more than {seconds} s of audio")
            self.waiting_audio.append(pcm)
            self.waiting_bytes += len(pcm)
            return
        self._process(pcm)
        now = time.monotonic()
        if now - self.last_interim_at < INTERIM_EVERY_S:
            return
        hypothesis = self.decoder.hyp()
        text = hypothesis.hypstr.strip() if hypothesis else ""
        if text and text != self.last_interim:
            self.last_interim_at = now
            self.last_interim = text
            send({"id": self.id, "type": "interim", "text": text})

    def _process(self, pcm):
        self.decoder.process_raw(pcm, False, False)
        if self.first_heard is not None:
            self.first_heard.append(pcm)

    def end(self):
        self.in_utterance = False
        self.decoder.end_utt()
        self.pooled.remember(self.meeting, self.means)

    def final_text(self):
        self.in_utterance = False
        self.decoder.end_utt()
        if self.first_heard:
            # A meeting's first utterance was heard with the model's generic cepstral mean, which can
            # be far from this microphone and voice (short first answers suffer most). Ending it
            # moved the mean toward this speaker: hear the same audio again with it. Costs one more
            # decode of the first utterance only, and stays deterministic.
            self.decoder.start_utt()
            self.decoder.process_raw(b"".join(self.first_heard), False, False)
            self.decoder.end_utt()
            self.first_heard = None
        self.pooled.remember(self.meeting, self.means)
        hypothesis = self.decoder.hyp()
        return hypothesis.hypstr.strip() if hypothesis else ""


def read_exact(stream, size):
    data = bytearray()
    while len(data) < size:
        chunk = stream.read(size - len(data))
        if not chunk:
            return None
        data.extend(chunk)
    return bytes(data)


def main():
    model_dir = sys.argv[1]
    max_decoders = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    max_waiting_bytes = int(sys.argv[3]) if len(sys.argv) > 3 else DEFAULT_MAX_WAITING_BYTES
    contexts = Contexts(model_dir, int(sys.argv[4]) if len(sys.argv) > 4 else DEFAULT_CONTEXTS_KEPT)
    pool = DecoderPool(model_dir, max_decoders, contexts.directory)
    pool.warm()
    means = OrderedDict()  # meeting id → its running cepstral mean
    send({"type": "ready"})
    streams = {}
    waiting = []  # streams without a decoder, oldest first
    stdin = sys.stdin.buffer

    def release(stream):
        if stream.decoder is not None:
            if stream.in_utterance:
                stream.end()
            pool.give_back(stream.pooled)
            stream.decoder = stream.pooled = None
        # A freed decoder goes to the oldest waiting stream, which may have finished meanwhile.
        while waiting:
            decoder = pool.take(waiting[0].context and waiting[0].context.key)
            if decoder is None:
                break
            queued = waiting.pop(0)
            queued.attach(decoder)
            if queued.finish_requested:
                complete(queued)

    def complete(stream):
        try:
            text = stream.final_text()
            send({"id": stream.id, "type": "final", "text": text})
        except Exception as error:  # a broken utterance must not take the other streams down
            send({"id": stream.id, "type": "error", "message": str(error)})
        streams.pop(stream.id, None)
        release(stream)

    while True:
        header = read_exact(stdin, 4)
        if header is None:
            return  # the service closed our stdin: exit quietly
        (length,) = struct.unpack(">I", header)
        frame = read_exact(stdin, length)
        if frame is None or length < 5:
            return
        kind = frame[0]
        (stream_id,) = struct.unpack(">I", frame[1:5])
        payload = frame[5:]
        try:
            if kind == CONTEXT:
                request = json.loads(payload)
                contexts.add(str(request["key"]), str(request["text"]))
                continue
            if kind == OPEN:
                request = json.loads(payload) if payload else {}
                context = contexts.get(request.get("context"))
                stream = Stream(stream_id, max_waiting_bytes, context, request.get("meeting"), means)
                streams[stream_id] = stream
                decoder = pool.take(context and context.key)
                if decoder is None:
                    waiting.append(stream)
                else:
                    stream.attach(decoder)
                pool.trim()
            elif kind == AUDIO:
                stream = streams.get(stream_id)
                if stream is not None and not stream.finish_requested:
                    stream.feed(payload)
            elif kind == FINISH:
                stream = streams.get(stream_id)
                if stream is None:
                    send({"id": stream_id, "type": "error", "message": "unknown stream"})
                elif stream.decoder is None:
                    stream.finish_requested = True  # decoded when a decoder frees up
                else:
                    complete(stream)
            elif kind == CANCEL:
                stream = streams.pop(stream_id, None)
                if stream is not None:
                    if stream in waiting:
                        waiting.remove(stream)
                    release(stream)
        except Exception as error:
            stream = streams.pop(stream_id, None)
            if stream is not None:
                # A stream still waiting must leave the queue, or a freed decoder would go to it.
                if stream in waiting:
                    waiting.remove(stream)
                release(stream)
            send({"id": stream_id, "type": "error", "message": str(error)})


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        pass
