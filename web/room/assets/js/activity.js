// The persona tile's indicator: speaking / listening / thinking, driven by the audio.
//
// - speaking: the persona's voice is playing (service audio or the browser's speech synthesis;
//   with no voice at all, while its reply streams in as text);
// - listening: the participant is talking (the service's `speech.started`, or the browser's
//   recognition hearing speech);
// - thinking: the participant finished (a recognised or typed utterance) and the persona's first
//   audio (or, without audio, its first words) has not arrived yet; also a filler or a tool call;
// - idle: nobody is talking; the persona waits for the participant.
//
// The avatar's ring follows the persona's loudness while it speaks through Web Audio.

const LABELS = {
  joining: 'Joining…',
  speaking: 'Speaking',
  listening: 'Listening to you…',
  thinking: 'Thinking…',
  idle: 'Your turn',
};

/** Which state wins when several hold at once (pure, for the tests). */
export function activityState({ joined, personaSpeaking, userSpeaking, thinking }) {
  if (!joined) return 'joining';
  if (personaSpeaking) return 'speaking';
  if (userSpeaking) return 'listening';
  if (thinking) return 'thinking';
  return 'idle';
}

export class ActivityIndicator {
  /**
   * @param {{ tile: HTMLElement, label: HTMLElement, announce: HTMLElement }} parts
   * @param {{ personaFirst: string, level?: (() => number) | null }} options
   */
  constructor(parts, { personaFirst, level = null }) {
    this.parts = parts;
    this.personaFirst = personaFirst;
    this.level = level;
    this.inputs = { joined: false, personaSpeaking: false, userSpeaking: false, thinking: false };
    this.thinkingLabel = '';
    this.frame = 0;
    this.state = '';
    this.render();
  }

  /** Updates some inputs (`joined`, `personaSpeaking`, `userSpeaking`, `thinking`). */
  set(inputs) {
    Object.assign(this.inputs, inputs);
    if (inputs.thinking === false) this.thinkingLabel = '';
    this.render();
  }

  /** Thinking, with what the persona is doing ("Looking something up…"). */
  think(label = '') {
    this.thinkingLabel = label;
    this.set({ thinking: true });
  }

  render() {
    const state = activityState(this.inputs);
    const { tile, label, announce } = this.parts;
    tile.dataset.state = state;
    label.textContent = state === 'thinking' && this.thinkingLabel ? this.thinkingLabel : LABELS[state];
    if (state !== this.state) {
      // Screen readers hear only the thinking state (the others follow the audio they hear).
      announce.textContent = state === 'thinking' ? `${this.personaFirst} is thinking…` : '';
    }
    this.state = state;
    this.#followLevel(state === 'speaking' && this.level !== null);
  }

  #followLevel(on) {
    const { tile } = this.parts;
    if (!on) {
      cancelAnimationFrame(this.frame);
      this.frame = 0;
      tile.style.removeProperty('--level');
      delete tile.dataset.level;
      return;
    }
    if (this.frame) return;
    tile.dataset.level = 'audio';
    const draw = () => {
      // Speech RMS rarely passes 0.3: scale it so the ring moves visibly.
      const level = Math.min(1, (this.level?.() ?? 0) * 4);
      tile.style.setProperty('--level', level.toFixed(3));
      this.frame = requestAnimationFrame(draw);
    };
    draw();
  }

  dispose() {
    this.#followLevel(false);
  }
}
