import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BARGE_IN_SPEECH_MS, isBackchannel, shouldBargeIn, words } from './barge-in.ts';

describe('barge-in policy', () => {
  it('normalises words: lower case, punctuation gone, inner hyphens and apostrophes kept', () => {
    assert.deepEqual(words('Uh-huh, OK! I\'m "sure"... -right-'), ['uh-huh', 'ok', "i'm", 'sure', 'right']);
    assert.deepEqual(words('  '), []);
  });

  it('a backchannel said over the persona does not interrupt', () => {
    for (const text of [
      '',
      'yeah',
      'Mhm.',
      'ok',
      'okay',
      'I see',
      'got it',
      'uh huh',
      'uh-huh',
      'oh right',
    ]) {
      assert.equal(shouldBargeIn(text, 400), false, text);
    }
  });

  it('a word that is not a backchannel interrupts at once', () => {
    for (const text of ['wait', 'no', 'Yeah but', 'sorry', 'I think']) {
      assert.equal(shouldBargeIn(text, 200), true, text);
    }
  });

  it('three words interrupt even when each is a backchannel', () => {
    assert.equal(shouldBargeIn('yeah yeah', 300), false);
    assert.equal(shouldBargeIn('yeah yeah yeah', 300), true);
    assert.equal(shouldBargeIn('ok got it', 300), true, '"got it" is one backchannel but two words');
  });

  it('speech that lasts 1.2 s interrupts whatever the recogniser has (or has not) heard', () => {
    assert.equal(shouldBargeIn('', BARGE_IN_SPEECH_MS - 20), false);
    assert.equal(shouldBargeIn('', BARGE_IN_SPEECH_MS), true);
    assert.equal(shouldBargeIn('yeah', BARGE_IN_SPEECH_MS + 500), true);
  });

  it('a final is a backchannel only when it says something and all of it is backchannel', () => {
    assert.equal(isBackchannel('Yeah.'), true);
    assert.equal(isBackchannel('ok, got it'), true);
    assert.equal(isBackchannel('all right'), true);
    assert.equal(isBackchannel(''), false);
    assert.equal(isBackchannel('yeah I led the team'), false);
    assert.equal(isBackchannel('see'), false, '"see" alone is not "i see"');
  });
});
