// The meeting's one AudioContext. The persona's audio from the service plays through `output`
// (to the speakers, or the speaker the participant picked); the recording gets one audio track
// that mixes the microphone with that same output, so a recording plays back both sides.
//
//   microphone ──────────────────────────────┐
//                                             ├─▶ mix (MediaStreamAudioDestinationNode) ─▶ MediaRecorder
//   persona audio ─▶ output ─┬─▶ speakers ────┘
//                            └─▶ analyser (level for the speaking indicator)

export class MeetingAudio {
  /** A MeetingAudio, or null where the browser has no Web Audio. Create it in a click handler. */
  static create() {
    const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
    if (!Context) return null;
    try {
      return new MeetingAudio(new Context({ latencyHint: 'interactive' }));
    } catch {
      return null;
    }
  }

  /** Whether this browser can give the recording a mixed track (MediaStreamAudioDestinationNode). */
  static get canRecordMix() {
    const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
    return Boolean(Context && typeof Context.prototype.createMediaStreamDestination === 'function');
  }

  /** Whether a speaker can be chosen for Web Audio output in this browser. */
  static get speakerChoiceSupported() {
    const Context = globalThis.AudioContext;
    return Boolean(
      (Context && 'setSinkId' in Context.prototype) ||
        (globalThis.HTMLMediaElement && 'setSinkId' in HTMLMediaElement.prototype),
    );
  }

  constructor(context) {
    this.context = context;
    this.output = context.createGain();
    this.output.connect(context.destination);
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 512;
    this.output.connect(this.analyser);
    this.levels = new Float32Array(this.analyser.fftSize);
    this.mix =
      typeof context.createMediaStreamDestination === 'function'
        ? context.createMediaStreamDestination()
        : null;
    if (this.mix) this.output.connect(this.mix);
    this.microphone = null;
    /** Set when the output goes through an <audio> element (browsers without AudioContext.setSinkId). */
    this.sinkElement = null;
  }

  /** Browsers start a context suspended without a user gesture: call from one. */
  resume() {
    if (this.context.state === 'suspended') return this.context.resume().catch(() => {});
    return Promise.resolve();
  }

  /** The microphone that feeds the recording's mix (called again after a device switch). */
  setMicrophone(stream) {
    this.microphone?.disconnect();
    this.microphone = null;
    const track = stream?.getAudioTracks()[0];
    if (!this.mix || !track) return;
    this.microphone = this.context.createMediaStreamSource(new MediaStream([track]));
    this.microphone.connect(this.mix);
  }

  /** The mixed track for MediaRecorder, or null without Web Audio mixing. */
  recordingTrack() {
    return this.mix?.stream.getAudioTracks()[0] ?? null;
  }

  /** The persona's current loudness, 0…1 (RMS of the output). */
  level() {
    this.analyser.getFloatTimeDomainData(this.levels);
    let sum = 0;
    for (const sample of this.levels) sum += sample * sample;
    return Math.sqrt(sum / this.levels.length);
  }

  /** Plays the persona on the chosen speaker ('' or 'default' = the system's default). */
  async setSpeaker(deviceId) {
    const id = deviceId === 'default' ? '' : (deviceId ?? '');
    if (typeof this.context.setSinkId === 'function') {
      await this.context.setSinkId(id);
      return;
    }
    if (!(globalThis.HTMLMediaElement && 'setSinkId' in HTMLMediaElement.prototype)) {
      throw new Error('This browser cannot choose a speaker.');
    }
    if (!this.sinkElement) {
      // Route the output through an <audio> element, the only thing Firefox can point at a device.
      const stream = this.context.createMediaStreamDestination();
      this.output.disconnect(this.context.destination);
      this.output.connect(stream);
      this.sinkElement = new Audio();
      this.sinkElement.srcObject = stream.stream;
    }
    await this.sinkElement.setSinkId(id);
    await this.sinkElement.play().catch(() => {});
  }

  close() {
    this.sinkElement?.pause();
    this.context.close().catch(() => {});
  }
}
