// The message box: Enter sends, Shift+Enter starts a new line, the box grows with its text.
// Typing works beside voice all along; `onSend(text, startedAt)` returns whether it was sent (the
// text stays in the box when it was not).

const MAX_TEXT = 4000;

export class Composer {
  /**
   * @param {{ form: HTMLFormElement, input: HTMLTextAreaElement }} parts
   * @param {(text: string, startedAt: number) => boolean} onSend
   */
  constructor(parts, onSend) {
    this.parts = parts;
    this.onSend = onSend;
    this.startedAt = 0;
    const { form, input } = parts;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.send();
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      }
    });
    input.addEventListener('input', () => {
      // The typed sentence's start_ms is when typing began, not when it was sent.
      if (!this.startedAt && input.value.trim()) this.startedAt = Date.now();
      if (!input.value.trim()) this.startedAt = 0;
      this.#fit();
    });
  }

  send() {
    const { input } = this.parts;
    const text = input.value.trim().slice(0, MAX_TEXT);
    if (!text) return;
    if (!this.onSend(text, this.startedAt || Date.now())) return;
    input.value = '';
    this.startedAt = 0;
    this.#fit();
  }

  focus() {
    this.parts.input.focus();
  }

  #fit() {
    const { input } = this.parts;
    input.style.height = 'auto';
    if (input.value) input.style.height = `${Math.min(140, input.scrollHeight + 2)}px`;
  }
}
