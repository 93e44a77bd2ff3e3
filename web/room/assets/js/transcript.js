// The transcript panel. Finished lines go into an `aria-live` log (announced once, complete);
// what is still changing — the persona's streaming line and the participant's interim
// recognition — shows in draft elements that screen readers skip, so they do not read every
// fragment.
//
// Scrolling: the panel follows the newest line unless the participant scrolled up to read. That
// choice ("stick to the bottom") changes only on the participant's own scrolling (wheel, touch,
// keys, the scrollbar), never from scrollTop while the panel is animating towards the bottom, and
// any growth of the content (a new line, a longer draft) re-pins it. A "newest" button brings a
// participant who scrolled up back down.

const NEAR_BOTTOM_PX = 40;
/** Scroll events this long after the participant's input are theirs (momentum scrolling lasts). */
const INTENT_MS = 1200;
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

export class TranscriptView {
  /**
   * @param {{ list: HTMLElement, scroller: HTMLElement, content: HTMLElement, draft: HTMLElement,
   *   draftSpeaker: HTMLElement, draftText: HTMLElement, userDraft: HTMLElement,
   *   userDraftText: HTMLElement, jump: HTMLElement }} parts
   * @param {{ agent: string, user: string }} names
   */
  constructor(parts, names) {
    this.parts = parts;
    this.names = names;
    this.draftTurn = null;
    this.userLines = 0;
    /** Turns already shown as finished lines (a repeated final message is not shown twice). */
    this.shownTurns = new Set();
    this.stick = true;
    this.intentAt = -Infinity;
    this.dragging = false;
    this.#followScrolling();
  }

  #followScrolling() {
    const { scroller, content, jump } = this.parts;
    const intent = () => {
      this.intentAt = performance.now();
    };
    scroller.addEventListener('wheel', intent, { passive: true });
    scroller.addEventListener('touchmove', intent, { passive: true });
    scroller.addEventListener('keydown', (event) => {
      if (SCROLL_KEYS.has(event.key)) intent();
    });
    // The scrollbar: a press on the panel itself (not on a line) then dragging.
    scroller.addEventListener('pointerdown', (event) => {
      if (event.target === scroller) this.dragging = true;
    });
    window.addEventListener('pointerup', () => {
      this.dragging = false;
    });
    scroller.addEventListener(
      'scroll',
      () => {
        if (!this.dragging && performance.now() - this.intentAt > INTENT_MS) return;
        this.stick = this.#atBottom();
        if (this.stick) jump.hidden = true;
      },
      { passive: true },
    );
    jump.addEventListener('click', () => {
      this.stick = true;
      jump.hidden = true;
      this.#pin();
    });
    // Every change of the content's height (a line added, a draft growing, lines wrapping anew)
    // or of the panel's (the composer growing): re-pin.
    if (typeof ResizeObserver === 'function') {
      const observer = new ResizeObserver(() => this.#changed());
      observer.observe(content);
      observer.observe(scroller);
    }
  }

  #atBottom() {
    const { scroller } = this.parts;
    return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= NEAR_BOTTOM_PX;
  }

  #pin() {
    const { scroller } = this.parts;
    // Instant (the panel has no CSS smooth scrolling): an animation would leave the newest line
    // below the fold when more arrives meanwhile.
    scroller.scrollTop = scroller.scrollHeight;
  }

  /** New or longer content: follow it, or tell a participant who scrolled up that there is more. */
  #changed() {
    if (this.stick) this.#pin();
    else this.parts.jump.hidden = this.#atBottom();
  }

  #line(kind, speaker, text, meta) {
    const item = document.createElement('li');
    item.className = `line line--${kind}`;
    if (meta?.turnId) item.dataset.turn = meta.turnId;
    if (meta?.clientId) {
      // Until the service says it is stored (a reconnect sends it again).
      item.dataset.client = meta.clientId;
      item.classList.add('line--pending');
      item.title = 'Sending…';
    }
    const who = document.createElement('span');
    who.className = 'line__speaker';
    who.textContent = speaker;
    const body = document.createElement('span');
    body.className = 'line__text';
    body.textContent = text;
    item.append(who, body);
    return item;
  }

  #append(item) {
    this.parts.list.append(item);
    this.#changed();
  }

  /** A delta of the persona's streaming turn. */
  delta(turnId, text) {
    const { draft, draftSpeaker, draftText } = this.parts;
    if (this.draftTurn !== turnId) {
      this.draftTurn = turnId;
      draftSpeaker.textContent = this.names.agent;
      draftText.textContent = '';
      draft.hidden = false;
    }
    draftText.textContent += text;
    this.#changed();
  }

  /** The persona's final text for a turn: replaces the draft with a finished line. */
  agentMessage(turnId, text, interrupted) {
    if (this.draftTurn === turnId) this.#clearDraft();
    if (!text.trim() || this.shownTurns.has(turnId)) return;
    this.shownTurns.add(turnId);
    const shown = interrupted ? `${text.trim()} …` : text;
    this.#append(this.#line('agent', this.names.agent, shown, { turnId }));
  }

  /** What the participant is saying, as recognised so far (replaced by each new interim). */
  userDraft(text) {
    const { userDraft, userDraftText } = this.parts;
    userDraftText.textContent = text;
    userDraft.hidden = !text;
    this.#changed();
  }

  /**
   * The participant's own line, shown as soon as it is sent or recognised. Speaking or sending
   * means they are following the conversation: back to the newest line. `keepDraft`: the draft
   * belongs to a later utterance that is still being spoken.
   */
  userLine(text, clientId, { keepDraft = false } = {}) {
    this.userLines += 1;
    if (!keepDraft) this.userDraft('');
    this.stick = true;
    this.parts.jump.hidden = true;
    this.#append(this.#line('user', this.names.user, text, { clientId }));
  }

  /** The service stored the participant's line with this client id. */
  saved(clientId) {
    for (const item of this.parts.list.querySelectorAll('.line--pending')) {
      if (item.dataset.client !== clientId) continue;
      item.classList.remove('line--pending');
      item.removeAttribute('title');
    }
  }

  /** A short system note ("Reconnecting…", "About one minute left."). */
  note(text) {
    const item = document.createElement('li');
    item.className = 'line line--note';
    item.textContent = text;
    this.#append(item);
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
    this.stick = true;
    this.#changed();
  }

  clear() {
    this.parts.list.replaceChildren();
    this.#clearDraft();
    this.userDraft('');
    this.userLines = 0;
  }

  #clearDraft() {
    this.draftTurn = null;
    this.parts.draft.hidden = true;
    this.parts.draftText.textContent = '';
  }
}
