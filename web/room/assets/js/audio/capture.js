// The microphone as 16 kHz PCM for the service's recogniser: an AudioWorklet (capture-worklet.js,
// served from the same origin) downsamples the microphone track and posts ~40 ms chunks. Emits
// `chunk` events with `{ pcm: ArrayBuffer, time: epoch ms of the chunk's first sample }`.

const WORKLET_URL = new URL('./capture-worklet.js', import.meta.url).href;
const CHUNK_MS = 40;

/** Converts an AudioContext time to epoch milliseconds (Date.now() clock). */
export function contextTimeToEpoch(context, time) {
  const stamp = typeof context.getOutputTimestamp === 'function' ? context.getOutputTimestamp() : null;
  if (stamp?.performanceTime) {
    const epochOfStamp = performance.timeOrigin + stamp.performanceTime;
    return epochOfStamp + (time - stamp.contextTime) * 1000;
  }
  return Date.now() - (context.currentTime - time) * 1000;
}

export class MicrophoneCapture extends EventTarget {
  /** @param {AudioContext} context */
  constructor(context) {
    super();
    this.context = context;
    this.loaded = null;
    this.source = null;
    this.node = null;
    /** Bumped by every start/stop, so a start still loading the module cannot win over a stop. */
    this.generation = 0;
  }

  static supported(context) {
    return Boolean(context?.audioWorklet && typeof AudioWorkletNode !== 'undefined');
  }

  get running() {
    return this.node !== null;
  }

  /** Starts (or restarts, after a device change) capturing the stream's microphone track. */
  async start(stream) {
    this.stop();
    const generation = this.generation;
    const track = stream?.getAudioTracks()[0];
    if (!track) throw new Error('no microphone track');
    this.loaded ??= this.context.audioWorklet.addModule(WORKLET_URL);
    await this.loaded;
    if (generation !== this.generation) return;
    const source = this.context.createMediaStreamSource(new MediaStream([track]));
    const node = new AudioWorkletNode(this.context, 'pcm-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      // The browser mixes a stereo microphone down to the one channel the worklet reads.
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
      processorOptions: { chunkMs: CHUNK_MS },
    });
    node.port.onmessage = (event) => {
      if (node !== this.node) return;
      const { pcm, time } = event.data;
      this.dispatchEvent(
        new CustomEvent('chunk', { detail: { pcm, time: contextTimeToEpoch(this.context, time) } }),
      );
    };
    source.connect(node);
    this.source = source;
    this.node = node;
  }

  stop() {
    this.generation += 1;
    if (this.node) {
      this.node.port.postMessage('stop');
      this.node.port.onmessage = null;
      this.source?.disconnect();
    }
    this.node = null;
    this.source = null;
  }
}
