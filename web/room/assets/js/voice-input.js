// How the participant is heard, chosen at join:
//
// 1. `service`: the service recognises (`joined.speech.recognition` is set) — the microphone is
//    streamed as 16 kHz PCM (`audio.start`, then binary frames; `audio.stop` on mute or a device
//    switch). The service detects the end of speech, sends interim and final text and handles
//    barge-in (docs/realtime.md, "Voice").
// 2. `browser`: the browser's own SpeechRecognition (listener.js) — final results are sent as
//    utterances by the meeting.
// 3. `typing`: neither works (no microphone, no recogniser, permission refused…).
//
// A failure falls back one step and says why on the status line. Emits the browser engine's
// `interim` ({ text }), `final` ({ text, startedAt, endedAt }) and `speech` ({ speaking }).

import { MicrophoneCapture } from './audio/capture.js';
import { Listener } from './listener.js';

/** Past this much unsent data the socket is stuck: drop audio rather than queue it. */
const MAX_BUFFERED_BYTES = 256 * 1024;

export class VoiceInput extends EventTarget {
  /**
   * @param {object} options
   * @param {import('./connection.js').RoomConnection} options.connection
   * @param {import('./audio/graph.js').MeetingAudio | null} options.audio
   * @param {MediaStream | null} options.stream
   * @param {string} options.language
   * @param {import('./status.js').StatusLine} options.status
   * @param {(epochMs: number) => number | undefined} options.meetingMs
   */
  constructor(options) {
    super();
    this.options = options;
    this.status = options.status;
    this.mode = 'typing';
    this.muted = false;
    /** The persona speaks through the browser's speech synthesis, outside the echo canceller. */
    this.held = false;
    this.streaming = false;
    this.capture = null;
    this.listener = null;
  }

  /** Chooses how the participant is heard (at the first `joined`). */
  begin({ recognition }) {
    const { audio, stream } = this.options;
    if (!stream?.getAudioTracks().length) {
      this.#fallTo('typing', 'No microphone is available.');
      return;
    }
    if (recognition && audio && MicrophoneCapture.supported(audio.context)) {
      this.mode = 'service';
      this.status.useInput('service', '', recognition);
      this.capture = new MicrophoneCapture(audio.context);
      this.capture.addEventListener('chunk', (event) => this.#chunk(event.detail));
      this.#startCapture();
      return;
    }
    this.#useBrowser(recognition ? '' : 'The service has no speech recogniser.');
  }

  // Service recognition ------------------------------------------------------------------------

  #startCapture() {
    if (this.mode !== 'service' || this.muted || this.held) return;
    this.status.starting('service');
    this.capture.start(this.options.stream).catch(() => {
      this.#useBrowser('The microphone could not be streamed to the service.');
    });
  }

  #chunk({ pcm, time }) {
    if (this.mode !== 'service' || this.muted || this.held) return;
    const { connection } = this.options;
    if (!this.streaming) {
      const start = this.options.meetingMs(time);
      const message =
        start === undefined ? { type: 'audio.start' } : { type: 'audio.start', start_ms: start };
      if (!connection.send(message)) return; // not connected: nothing is heard until we are again
      this.streaming = true;
      this.status.ready('service');
    }
    if (connection.bufferedAmount > MAX_BUFFERED_BYTES) return;
    if (!connection.sendBinary(pcm)) this.streaming = false;
  }

  #stopStreaming() {
    if (this.streaming) this.options.connection.send({ type: 'audio.stop' });
    this.streaming = false;
  }

  // Browser recognition ---------------------------------------------------------------------------

  #useBrowser(reason) {
    this.capture?.stop();
    this.#stopStreaming();
    if (!Listener.supported) {
      this.#fallTo(
        'typing',
        reason ? `${reason} This browser cannot recognise speech.` : 'This browser cannot recognise speech.',
      );
      return;
    }
    this.mode = 'browser';
    this.status.useInput('browser');
    const listener = new Listener({ language: this.options.language });
    const forward = (type) => (event) => this.dispatchEvent(new CustomEvent(type, { detail: event.detail }));
    listener.addEventListener('interim', forward('interim'));
    listener.addEventListener('final', forward('final'));
    listener.addEventListener('speech', forward('speech'));
    listener.addEventListener('state', (event) => {
      const { state, message } = event.detail;
      if (listener !== this.listener) return;
      if (state === 'listening') this.status.ready('browser');
      else if (state === 'unavailable') this.#fallTo('typing', message);
    });
    this.listener = listener;
    if (!this.muted) listener.start();
    if (this.held) listener.pause();
  }

  #fallTo(mode, reason) {
    this.mode = mode;
    this.listener?.stop();
    this.listener = null;
    this.status.useInput('typing', reason);
  }

  // Controls --------------------------------------------------------------------------------------

  setMuted(muted) {
    this.muted = muted;
    this.status.setMuted(muted);
    if (this.mode === 'service') {
      if (muted) {
        this.#stopStreaming();
        this.capture.stop();
      } else this.#startCapture();
    } else if (this.mode === 'browser') {
      if (muted) this.listener.stop();
      else {
        this.status.starting('browser');
        this.listener.start();
        if (this.held) this.listener.pause();
      }
    }
  }

  /**
   * The persona speaks. Browser recognition always pauses (it would transcribe the persona from
   * the speakers). The service stream pauses only when the browser's speech synthesis speaks: the
   * service's own audio plays through Web Audio, which the echo canceller removes, and the stream
   * must keep flowing for the participant to interrupt by voice.
   */
  personaSpeaking(speaking, { browserSynthesis }) {
    if (this.mode === 'browser') {
      if (speaking) this.listener.pause();
      else this.listener.resume();
      return;
    }
    const hold = speaking && browserSynthesis;
    if (hold === this.held) return;
    this.held = hold;
    if (this.mode !== 'service') return;
    if (hold) {
      this.#stopStreaming();
      this.capture.stop();
    } else this.#startCapture();
  }

  /** The connection dropped or came back: a new `audio.start` opens the stream again. */
  connectionChanged(connected) {
    this.streaming = false;
    if (this.mode === 'browser') {
      if (connected) this.listener.resume();
      else this.listener.pause();
    }
  }

  /** The participant switched microphones (the stream now holds the new track). */
  microphoneChanged() {
    if (this.mode !== 'service') return;
    this.#stopStreaming();
    this.capture.stop();
    this.#startCapture();
  }

  stop() {
    if (this.mode === 'service') {
      this.#stopStreaming();
      this.capture.stop();
    }
    this.listener?.stop();
  }
}
