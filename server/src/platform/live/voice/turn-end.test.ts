import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PitchTracker } from './prosody.ts';
import {
  LEVEL_COMPLETE_MS,
  MAX_END_SILENCE_MS,
  MIN_END_SILENCE_MS,
  readText,
  type TextVerdict,
  turnEndSilence,
  WEAK_INCOMPLETE_MS,
} from './turn-end.ts';

const DEFAULT_MS = 600;

function verdicts(texts: string[]): Record<string, TextVerdict> {
  return Object.fromEntries(texts.map((text) => [text, readText(text).verdict]));
}

function expectAll(texts: string[], verdict: TextVerdict): void {
  const got = verdicts(texts);
  assert.deepEqual(got, Object.fromEntries(texts.map((text) => [text, verdict])));
}

/** Silence after `text`, said on a falling pitch with the recogniser caught up. */
const silenceAfter = (text: string) =>
  turnEndSilence({ text, textCurrent: true, pitch: 'falling' }, DEFAULT_MS).silenceMs;

describe('turn-end policy: the words', () => {
  it('a finished sentence or question is complete, spelt as PocketSphinx writes it or punctuated', () => {
    expectAll(
      [
        'i have five years of experience leading the support team',
        'i have five years of experience',
        'we measured every change before we shipped it',
        'the project was good',
        'i like that',
        'i told her',
        'i gave up',
        'the system went down',
        'when i joined the team we had no tests',
        'what do you mean',
        'could you tell me more about the team',
        'who did you work with',
        'what are you looking for',
        'I would like to understand the pricing before we sign the contract.',
        'Could you walk me through your last project?',
      ],
      'complete',
    );
    assert.equal(readText('could you tell me more about the team').question, true);
    assert.equal(readText('i have five years of experience').question, false);
  });

  it('a very short answer is complete: yes, no, thanks, a noun phrase, an ellipsis', () => {
    expectAll(
      [
        'yes',
        'no',
        'Yes.',
        'okay',
        'sure',
        'thank you',
        'five years',
        'the billing service',
        'yes i have',
        'i think so',
      ],
      'complete',
    );
  });

  it('a trailing conjunction, filler, preposition, article or possessive promises more', () => {
    expectAll(
      [
        'i went to the store and',
        'we moved it but',
        'i stayed because',
        'the project finished two weeks early so',
        'i worked there for two years and then',
        'um',
        'uh',
        'i think um',
        'i usually start the day by',
        'we moved the billing service to',
        'the hardest part was agreeing on a plan with the',
        'i want to',
        'i like my',
        'i think that',
        'who did you',
        'it was a really good',
        'I went to the store,',
        'I went to the store and...',
      ],
      'incomplete',
    );
  });

  it('an auxiliary, an intensifier, "I think" or a clause still waiting for its main clause usually promise more', () => {
    expectAll(
      ['i was', 'i would', 'it was really', 'i think', 'when i joined the team', 'if we have time'],
      'weak-incomplete',
    );
  });

  it('numbers: a count is complete, one that may go on or digits being read out are open', () => {
    expectAll(['about fifteen', 'we had twelve', 'it took three years'], 'complete');
    expectAll(['it costs twenty', 'about three hundred', 'my number is five five five'], 'open');
  });

  it('no words yet is none', () => {
    assert.equal(readText('').verdict, 'none');
    assert.equal(readText('  ').verdict, 'none');
  });
});

describe('turn-end policy: the silence', () => {
  it('a finished sentence ends sooner than the fixed 600 ms; a trailing "and", "um" or "the" waits longer', () => {
    assert.equal(
      silenceAfter('i have five years of experience leading the support team'),
      MIN_END_SILENCE_MS,
    );
    assert.equal(silenceAfter('could you tell me more about the team'), MIN_END_SILENCE_MS);
    assert.equal(silenceAfter('yes'), MIN_END_SILENCE_MS);
    for (const text of ['i went to the store and', 'um', 'i usually start the day by', 'it was the'])
      assert.equal(silenceAfter(text), MAX_END_SILENCE_MS, text);
    assert.equal(silenceAfter('i was'), WEAK_INCOMPLETE_MS);
    assert.equal(silenceAfter('it costs twenty'), DEFAULT_MS);
  });

  it('finished words that may lag the voice do not end the turn early', () => {
    const stale = turnEndSilence(
      { text: 'i went to the store', textCurrent: false, pitch: 'falling' },
      DEFAULT_MS,
    );
    assert.equal(stale.silenceMs, DEFAULT_MS);
    // Words that promise more are trusted at once: waiting is the safe side.
    const incomplete = turnEndSilence(
      { text: 'i went to the', textCurrent: false, pitch: 'falling' },
      DEFAULT_MS,
    );
    assert.equal(incomplete.silenceMs, MAX_END_SILENCE_MS);
  });

  it('the voice: a statement on a rising pitch waits the default, a level one a little longer; a question may rise', () => {
    const at = (text: string, pitch: 'rising' | 'level' | 'unknown') =>
      turnEndSilence({ text, textCurrent: true, pitch }, DEFAULT_MS).silenceMs;
    assert.equal(at('i went to the store', 'rising'), DEFAULT_MS);
    assert.equal(at('i went to the store', 'level'), LEVEL_COMPLETE_MS);
    assert.equal(at('i went to the store', 'unknown'), MIN_END_SILENCE_MS);
    assert.equal(at('did you go to the store', 'rising'), MIN_END_SILENCE_MS);
    // No words yet: a held or rising voice is a hesitation.
    assert.equal(at('', 'level'), WEAK_INCOMPLETE_MS);
    assert.equal(at('', 'unknown'), DEFAULT_MS);
  });

  it('stays within 300–1200 ms; a configured default outside moves the bound it passes', () => {
    for (const text of ['', 'yes', 'and', 'i was', 'it costs twenty']) {
      for (const defaultMs of [300, 600, 1000]) {
        const { silenceMs } = turnEndSilence({ text, textCurrent: true, pitch: 'unknown' }, defaultMs);
        assert.ok(silenceMs >= MIN_END_SILENCE_MS && silenceMs <= MAX_END_SILENCE_MS, `${text} ${defaultMs}`);
      }
    }
    const at = (text: string, defaultMs: number) =>
      turnEndSilence({ text, textCurrent: true, pitch: 'unknown' }, defaultMs).silenceMs;
    assert.equal(at('and', 2000), 2000);
    assert.equal(at('yes', 2000), MIN_END_SILENCE_MS);
    assert.equal(at('yes', 200), 200);
    assert.equal(at('and', 200), MAX_END_SILENCE_MS);
  });
});

/** A voiced sound whose pitch glides from `fromHz` to `toHz` (a sawtooth: harmonics like a voice). */
function glide(fromHz: number, toHz: number, ms: number): Buffer {
  const samples = (16_000 * ms) / 1000;
  const pcm = Buffer.alloc(samples * 2);
  let phase = 0;
  for (let i = 0; i < samples; i += 1) {
    const hz = fromHz + ((toHz - fromHz) * i) / samples;
    phase = (phase + hz / 16_000) % 1;
    pcm.writeInt16LE(Math.round((phase - 0.5) * 12_000), i * 2);
  }
  return pcm;
}

describe('turn-end policy: the pitch of the last words', () => {
  const cueOf = (...parts: Buffer[]) => {
    const tracker = new PitchTracker();
    for (const part of parts) tracker.push(part);
    return tracker.cue();
  };

  it('a voice that falls before it stops is falling; one that rises is rising; a held one is level', () => {
    assert.equal(cueOf(glide(140, 140, 600), glide(140, 95, 300)), 'falling');
    assert.equal(cueOf(glide(120, 120, 600), glide(120, 170, 300)), 'rising');
    assert.equal(cueOf(glide(130, 130, 900)), 'level');
  });

  it('silence after the voice is skipped; too little voice or none at all is unknown', () => {
    assert.equal(cueOf(glide(140, 140, 600), glide(140, 95, 300), Buffer.alloc(16_000)), 'falling');
    assert.equal(cueOf(Buffer.alloc(32_000)), 'unknown');
    assert.equal(cueOf(glide(140, 140, 40)), 'unknown');
  });

  it('reset forgets the previous utterance', () => {
    const tracker = new PitchTracker();
    tracker.push(glide(140, 95, 600));
    tracker.reset();
    assert.equal(tracker.cue(), 'unknown');
  });
});
