// Plays the persona's audio from the service (`agent.audio` + its binary frame, docs/realtime.md
// "Voice"): each sentence is scheduled right after the previous one on the AudioContext clock, so
// there is no gap and no overlap however the frames arrive. `stopTurn` cuts a turn at once
// (barge-in). Emits `speaking` and `idle`.

/** Start a little ahead of "now" so the first buffer is not clipped. */
const LEAD_S = 0.03;
/** Between two sentences of one reply the queue may run dry for a moment: do not flicker. */
const IDLE_AFTER_MS = 300;

export class PersonaPlayback extends EventTarget {
  /** @param {import('./graph.js').MeetingAudio} audio */
  constructor(audio) {
    super();
    this.audio = audio;
    this.context = audio.context;
    /** AudioContext time at which the last scheduled buffer ends. */
    this.queueEnd = 0;
    /** @type {Set<{ source: AudioBufferSourceNode, turnId: string, end: number, cut: boolean }>} */
    this.playing = new Set();
    /** Turns stopped here or by the server: their late frames are dropped. */
    this.stoppedTurns = new Set();
    this.isSpeaking = false;
    this.idleTimer = 0;
    this.stats = { received: 0, played: 0, cut: 0, dropped: 0, playedMs: 0 };
  }

  get speaking() {
    return this.isSpeaking;
  }

  /** Whether any buffer is scheduled or sounding now. */
  get active() {
    return this.playing.size > 0;
  }

  /**
   * Queues one chunk of the persona's voice.
   * @param {{ turn_id: string, sample_rate: number, bytes?: number }} header the `agent.audio` message
   * @param {ArrayBuffer} data PCM s16le mono
   */
  play(header, data) {
    this.stats.received += 1;
    const samples = Math.floor(data.byteLength / 2);
    // A frame of another length is not this header's (a frame lost across a reconnection).
    const mismatched = header.bytes !== undefined && header.bytes !== data.byteLength;
    if (this.stoppedTurns.has(header.turn_id) || samples === 0 || mismatched) {
      this.stats.dropped += 1;
      return;
    }
    let buffer;
    try {
      buffer = this.context.createBuffer(1, samples, header.sample_rate);
    } catch {
      this.stats.dropped += 1; // a sample rate Web Audio cannot take
      return;
    }
    const pcm = new Int16Array(data, 0, samples);
    const channel = buffer.getChannelData(0);
    for (let i = 0; i < samples; i += 1) channel[i] = pcm[i] / 32768;
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.audio.output);
    const start = Math.max(this.context.currentTime + LEAD_S, this.queueEnd);
    const entry = { source, turnId: header.turn_id, end: start + buffer.duration, cut: false };
    source.addEventListener('ended', () => {
      this.playing.delete(entry);
      if (entry.cut) this.stats.cut += 1;
      else {
        this.stats.played += 1;
        this.stats.playedMs += Math.round(buffer.duration * 1000);
      }
      this.#update();
    });
    source.start(start);
    this.queueEnd = entry.end;
    this.playing.add(entry);
    this.#update();
  }

  /** Stops a turn's audio now and drops whatever still arrives for it. */
  stopTurn(turnId) {
    this.stoppedTurns.add(turnId);
    this.#cut((entry) => entry.turnId === turnId);
  }

  /** Stops everything that is playing or queued (the participant talked over the persona). */
  stopAll() {
    for (const entry of this.playing) this.stoppedTurns.add(entry.turnId);
    this.#cut(() => true);
  }

  #cut(matches) {
    for (const entry of this.playing) {
      if (!matches(entry)) continue;
      entry.cut = true;
      try {
        entry.source.stop();
      } catch {
        // not started yet in some engines: disconnecting silences it either way
      }
      entry.source.disconnect();
    }
    let end = 0;
    for (const entry of this.playing) if (!entry.cut) end = Math.max(end, entry.end);
    this.queueEnd = end;
    this.#update();
  }

  #update() {
    const audible = [...this.playing].some((entry) => !entry.cut);
    clearTimeout(this.idleTimer);
    if (audible && !this.isSpeaking) {
      this.isSpeaking = true;
      this.dispatchEvent(new Event('speaking'));
    } else if (!audible && this.isSpeaking) {
      const anyCut = [...this.playing].some((entry) => entry.cut);
      const goIdle = () => {
        this.isSpeaking = false;
        this.dispatchEvent(new Event('idle'));
      };
      // A cut is immediate (barge-in must show at once); a drained queue waits for the next sentence.
      if (anyCut || this.queueEnd === 0) goIdle();
      else this.idleTimer = window.setTimeout(goIdle, IDLE_AFTER_MS);
    }
  }
}
