/** Time comes from here, never from `new Date()` in domain code, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: for retry schedules, expiries and timeouts in tests. */
export class FakeClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-11-01T12:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
}
