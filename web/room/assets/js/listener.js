// The participant's voice through the browser: the Web Speech API's SpeechRecognition (Chrome,
// Edge, Safari), used when the service has no recogniser (voice-input.js). Kept running across its
// own pauses and restarted when the browser stops it. Emits `interim` ({ text }), `final`
// ({ text, startedAt, endedAt }: epoch ms), `speech` ({ speaking }) and `state`
// ({ state, message }). `listening` is reported only once audio capture really started, so a
// recogniser that cannot use the microphone never claims to listen first.

const RESTART_DELAY_MS = 250;
const MAX_FAILED_STARTS = 3;
/** Recognition reports a phrase a moment after it began: date the start back a little. */
const RECOGNITION_LAG_MS = 400;

export function recognitionClass() {
  return globalThis.SpeechRecognition ?? globalThis.webkitSpeechRecognition ?? null;
}

export class Listener extends EventTarget {
  constructor({ language = 'en-US' } = {}) {
    super();
    this.language = language;
    this.recognition = null;
    this.wanted = false;
    this.paused = false;
    this.running = false;
    this.failures = 0;
    this.segmentStart = 0;
    this.gaveUp = false;
  }

  static get supported() {
    return recognitionClass() !== null;
  }

  /** The participant wants to be heard (microphone on). */
  start() {
    if (this.gaveUp) return;
    this.wanted = true;
    this.#run();
  }

  /** Microphone off. */
  stop() {
    this.wanted = false;
    this.#halt();
    this.#state('off');
  }

  /** While the persona speaks: do not transcribe the persona's own voice from the speakers. */
  pause() {
    if (this.paused) return;
    this.paused = true;
    this.#halt();
    if (this.wanted && !this.gaveUp) this.#state('paused');
  }

  resume() {
    if (!this.paused) return;
    this.paused = false;
    this.#run();
  }

  #state(state, message = '') {
    this.dispatchEvent(new CustomEvent('state', { detail: { state, message } }));
  }

  #emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  #halt() {
    if (this.recognition && this.running) {
      try {
        this.recognition.abort();
      } catch {
        // already stopped
      }
    }
  }

  #giveUp(message) {
    this.gaveUp = true;
    this.wanted = false;
    this.#halt();
    this.#state('unavailable', message);
  }

  #ensureRecognition() {
    if (this.recognition) return this.recognition;
    const Recognition = recognitionClass();
    if (!Recognition) return null;
    const recognition = new Recognition();
    recognition.continuous = true;
    recognition.interimResults = true;
    recognition.lang = this.language;
    recognition.maxAlternatives = 1;
    recognition.addEventListener('start', () => {
      this.running = true;
    });
    recognition.addEventListener('audiostart', () => this.#state('listening'));
    recognition.addEventListener('speechstart', () => {
      if (!this.segmentStart) this.segmentStart = Date.now() - RECOGNITION_LAG_MS;
      this.#emit('speech', { speaking: true });
    });
    recognition.addEventListener('speechend', () => this.#emit('speech', { speaking: false }));
    recognition.addEventListener('result', (event) => this.#result(event));
    recognition.addEventListener('error', (event) => this.#error(event));
    recognition.addEventListener('end', () => {
      this.running = false;
      if (this.wanted && !this.paused && !this.gaveUp) {
        setTimeout(() => this.#run(), RESTART_DELAY_MS);
      }
    });
    this.recognition = recognition;
    return recognition;
  }

  #run() {
    if (!this.wanted || this.paused || this.gaveUp || this.running) return;
    const recognition = this.#ensureRecognition();
    if (!recognition) {
      this.#giveUp('This browser cannot recognise speech.');
      return;
    }
    try {
      recognition.start();
      this.running = true;
    } catch {
      // InvalidStateError: it is already starting
    }
  }

  #result(event) {
    this.failures = 0;
    let interim = '';
    for (let i = event.resultIndex; i < event.results.length; i += 1) {
      const result = event.results[i];
      const text = result[0]?.transcript ?? '';
      if (!this.segmentStart) this.segmentStart = Date.now() - RECOGNITION_LAG_MS;
      if (result.isFinal) {
        const clean = text.trim();
        if (clean) {
          this.#emit('final', { text: clean, startedAt: this.segmentStart, endedAt: Date.now() });
        }
        this.segmentStart = 0;
      } else {
        interim += text;
      }
    }
    this.#emit('interim', { text: interim.trim() });
  }

  #error(event) {
    switch (event.error) {
      case 'no-speech':
      case 'aborted':
        return; // silence, or our own pause/stop: the `end` handler restarts when wanted
      case 'not-allowed':
      case 'service-not-allowed':
        this.#giveUp('Voice recognition is blocked in this browser.');
        return;
      case 'audio-capture':
        this.#giveUp('Voice recognition could not use the microphone.');
        return;
      default:
        // `network` (the browser's recognition service is unreachable), `language-not-supported`…
        this.failures += 1;
        if (this.failures >= MAX_FAILED_STARTS || event.error === 'language-not-supported') {
          this.#giveUp('Voice recognition is not available right now.');
        }
    }
  }
}
