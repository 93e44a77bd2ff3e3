// The meeting clock in the top bar: elapsed time against the scenario's limit, the bar filling
// up, amber in the last minute (with one note in the transcript when that minute starts).

import { byId, formatClock, setText } from './dom.js';

const WARN_REMAINING_S = 60;

export class MeetingTimer {
  /** @param {{ onLastMinute: () => void }} handlers */
  constructor({ onLastMinute }) {
    this.onLastMinute = onLastMinute;
    this.interval = 0;
    this.warned = false;
  }

  /**
   * (Re)starts the clock.
   * @param {{ startedAt: number, skew: number, limitSeconds: number }} timing  epoch ms of the
   *   meeting start, server minus local clock (ms), the limit (0: none)
   */
  start({ startedAt, skew, limitSeconds }) {
    clearInterval(this.interval);
    setText('timer-limit', limitSeconds ? formatClock(limitSeconds) : '--:--');
    const tick = () => {
      const elapsed = (Date.now() + skew - startedAt) / 1000;
      setText('timer-elapsed', formatClock(elapsed));
      if (!limitSeconds) return;
      const fraction = Math.min(1, elapsed / limitSeconds);
      byId('timer-fill').style.width = `${(fraction * 100).toFixed(1)}%`;
      const remaining = limitSeconds - elapsed;
      const warn = remaining <= WARN_REMAINING_S;
      byId('timer').dataset.warn = String(warn);
      if (warn && !this.warned && remaining > 0) {
        this.warned = true;
        this.onLastMinute();
      }
    };
    tick();
    this.interval = window.setInterval(tick, 500);
  }

  stop() {
    clearInterval(this.interval);
  }
}
