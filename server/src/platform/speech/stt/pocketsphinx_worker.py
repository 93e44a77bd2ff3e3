"""PocketSphinx sidecar of the Understudy service (stt/pocketsphinx.ts starts one per process).

Multiplexes recognition streams over stdin/stdout so the service pays the Python start-up and the
model load once, not per utterance.

In (stdin), frames: uint32 big-endian length N, then N bytes = kind (1 byte), stream id
(uint32 big-endian), payload. Kinds: 1 open (payload ignored), 2 audio (PCM s16le mono 16 kHz),
3 finish, 4 cancel.
Out (stdout), one JSON object a line: {"type": "ready"} once the first decoder is loaded, then
{"id": n, "type": "interim"|"final", "text": "..."} and {"id": n, "type": "error", "message": "..."}.

A decoder holds one utterance at a time and costs ~90 MB and ~0.3 s to load, so a small pool is
kept; streams beyond it wait with their audio buffered (at most argv[3] bytes each: more fails the
stream) and are decoded when a decoder frees up.

Arguments: model directory, decoders at most (default 3), audio bytes a waiting stream may buffer
(default 30 s).
Standard library and pocketsphinx only (Debian's python3-pocketsphinx).
"""

import json
import os
import struct
import sys
import time

from pocketsphinx import Decoder

OPEN, AUDIO, FINISH, CANCEL = 1, 2, 3, 4
INTERIM_EVERY_S = 0.25
IDLE_DECODER_TTL_S = 60.0
DEFAULT_MAX_WAITING_BYTES = 30 * 16000 * 2


class QueueFull(Exception):
    pass


def log(message):
    sys.stderr.write(f"pocketsphinx sidecar: {message}\n")
    sys.stderr.flush()


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


class DecoderPool:
    def __init__(self, model_dir, max_decoders):
        self.model_dir = model_dir
        self.max_decoders = max_decoders
        self.idle = []  # (decoder, idle since)
        self.busy = 0

    def _load(self):
        config = Decoder.default_config()
        config.set_string("-hmm", os.path.join(self.model_dir, "en-us"))
        config.set_string("-lm", os.path.join(self.model_dir, "en-us.lm.bin"))
        config.set_string("-dict", os.path.join(self.model_dir, "cmudict-en-us.dict"))
        config.set_string("-logfn", os.devnull)
        return Decoder(config)

    def warm(self):
        self.idle.append((self._load(), time.monotonic()))

    def take(self):
        """An idle or new decoder, or None when the pool is full."""
        if self.idle:
            decoder, _ = self.idle.pop()
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
        self.idle = keep


class Stream:
    def __init__(self, stream_id, max_waiting_bytes):
        self.id = stream_id
        self.decoder = None
        self.in_utterance = False
        self.waiting_audio = []
        self.waiting_bytes = 0
        self.max_waiting_bytes = max_waiting_bytes
        self.finish_requested = False
        self.last_interim_at = 0.0
        self.last_interim = ""

    def attach(self, decoder):
        self.decoder = decoder
        decoder.start_utt()
        self.in_utterance = True
        for chunk in self.waiting_audio:
            decoder.process_raw(chunk, False, False)
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
        self.decoder.process_raw(pcm, False, False)
        now = time.monotonic()
        if now - self.last_interim_at < INTERIM_EVERY_S:
            return
        hypothesis = self.decoder.hyp()
        text = hypothesis.hypstr.strip() if hypothesis else ""
        if text and text != self.last_interim:
            self.last_interim_at = now
            self.last_interim = text
            send({"id": self.id, "type": "interim", "text": text})

    def final_text(self):
        self.in_utterance = False
        self.decoder.end_utt()
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
    pool = DecoderPool(model_dir, max_decoders)
    pool.warm()
    send({"type": "ready"})
    streams = {}
    waiting = []  # streams without a decoder, oldest first
    stdin = sys.stdin.buffer

    def release(stream):
        if stream.decoder is not None:
            if stream.in_utterance:
                stream.in_utterance = False
                stream.decoder.end_utt()
            pool.give_back(stream.decoder)
            stream.decoder = None
        # A freed decoder goes to the oldest waiting stream, which may have finished meanwhile.
        while waiting:
            decoder = pool.take()
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
            if kind == OPEN:
                stream = Stream(stream_id, max_waiting_bytes)
                streams[stream_id] = stream
                decoder = pool.take()
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
