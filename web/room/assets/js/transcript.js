// The transcript panel. Finished lines go into an `aria-live` log (announced once, complete);
// the persona's line that is still streaming is shown in a separate draft element that screen
// readers skip, so they do not read every fragment.

export class TranscriptView {
  /**
   * @param {{ list: HTMLElement, scroller: HTMLElement, draft: HTMLElement, draftSpeaker: HTMLElement, draftText: HTMLElement }} parts
   * @param {{ agent: string, user: string }} names
   */
  constructor(parts, names) {
    this.parts = parts;
    this.names = names;
    this.draftTurn = null;
    this.userLines = 0;
    /** Turns already shown as finished lines (a repeated final message is not shown twice). */
    this.shownTurns = new Set();
  }

  #nearBottom() {
    const { scroller } = this.parts;
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 80;
  }

  #scroll(force) {
    if (force || this.#nearBottom()) this.parts.scroller.scrollTop = this.parts.scroller.scrollHeight;
  }

  #line(kind, speaker, text, meta) {
    const item = document.createElement('li');
    item.className = `line line--${kind}`;
    if (meta?.turnId) item.dataset.turn = meta.turnId;
    if (meta?.clientId) item.dataset.client = meta.clientId;
    const who = document.createElement('span');
    who.className = 'line__speaker';
    who.textContent = speaker;
    const body = document.createElement('span');
    body.className = 'line__text';
    body.textContent = text;
    item.append(who, body);
    return item;
  }

  /** A delta of the persona's streaming turn. */
  delta(turnId, text) {
    const stick = this.#nearBottom();
    const { draft, draftSpeaker, draftText } = this.parts;
    if (this.draftTurn !== turnId) {
      this.draftTurn = turnId;
      draftSpeaker.textContent = this.names.agent;
      draftText.textContent = '';
      draft.hidden = false;
    }
    draftText.textContent += text;
    this.#scroll(stick);
  }

  /** The persona's final text for a turn: replaces the draft with a finished line. */
  agentMessage(turnId, text, interrupted) {
    const stick = this.#nearBottom();
    if (this.draftTurn === turnId) this.#clearDraft();
    if (!text.trim() || this.shownTurns.has(turnId)) return;
    this.shownTurns.add(turnId);
    const shown = interrupted ? `${text.trim()} …` : text;
    this.parts.list.append(this.#line('agent', this.names.agent, shown, { turnId }));
    this.#scroll(stick);
  }

  /** The participant's own line, shown as soon as it is sent. */
  userLine(text, clientId) {
    this.userLines += 1;
    this.parts.list.append(this.#line('user', this.names.user, text, { clientId }));
    this.#scroll(true);
  }

  /** A short system note ("Reconnecting…", "Looking something up…"). */
  note(text) {
    const stick = this.#nearBottom();
    const item = document.createElement('li');
    item.className = 'line line--note';
    item.textContent = text;
    this.parts.list.append(item);
    this.#scroll(stick);
  }

  /** Stored sentences (after a resume, or the meeting page after the end). */
  sentences(sentences) {
    for (const sentence of sentences) {
      const kind = sentence.speaker === 'user' ? 'user' : 'agent';
      const name = kind === 'user' ? this.names.user : this.names.agent;
      const item = this.#line(kind, name, sentence.message);
      if (sentence.start_duration) {
        const time = document.createElement('span');
        time.className = 'line__time';
        time.textContent = ` · ${sentence.start_duration}`;
        item.firstChild.append(time);
      }
      if (kind === 'user') this.userLines += 1;
      this.parts.list.append(item);
    }
    this.#scroll(true);
  }

  clear() {
    this.parts.list.replaceChildren();
    this.#clearDraft();
    this.userLines = 0;
  }

  #clearDraft() {
    this.draftTurn = null;
    this.parts.draft.hidden = true;
    this.parts.draftText.textContent = '';
  }
}
