import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BARGE_IN_SPEECH_MS, isBackchannel, isEcho, shouldBargeIn, words } from './barge-in.ts';
import { ECHO_TAIL_MS, PersonaEcho } from './persona-echo.ts';

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

  const persona = new Set(words('Tell me about a system you designed. What was the hardest part?'));

  it('the persona’s own words coming back (≥ 60 % of ≥ 2 words) are echo; the participant’s are not', () => {
    assert.equal(isEcho('tell me about a system', persona), true);
    assert.equal(isEcho('what was the hardest', persona), true);
    assert.equal(isEcho('a system you designed uh', persona), true, '4 of 5 words');
    assert.equal(isEcho('the hardest part was scaling our kafka cluster', persona), false, '4 of 8 words');
    assert.equal(isEcho('i built a payments ledger', persona), false);
    assert.equal(isEcho('system', persona), false, 'one word is too little to tell');
    assert.equal(isEcho('tell me about a system', new Set()), false, 'the persona said nothing lately');
  });

  it('echo never interrupts: not by its words, nor by lasting 1.2 s', () => {
    assert.equal(shouldBargeIn('tell me about a system', 400, persona), false);
    assert.equal(shouldBargeIn('tell me about a system', BARGE_IN_SPEECH_MS + 2000, persona), false);
    // One word the persona has just said may be the start of its echo: wait for the next.
    assert.equal(shouldBargeIn('designed', 300, persona), false);
    assert.equal(shouldBargeIn('designed', BARGE_IN_SPEECH_MS, persona), false);
    // The participant's own words interrupt as before, also when some are the persona's.
    assert.equal(shouldBargeIn('wait', 200, persona), true);
    assert.equal(shouldBargeIn('sorry the system was not mine', 400, persona), true);
    // No text yet: only the duration can tell (engines without interim results).
    assert.equal(shouldBargeIn('', BARGE_IN_SPEECH_MS, persona), true);
  });

  it('the persona’s recent words: its running turn, and ended turns for a few seconds', () => {
    let now = 0;
    const echo = new PersonaEcho(() => now);
    echo.observe({ type: 'agent.delta', turn_id: 't1', text: 'Tell me ab' });
    echo.observe({ type: 'agent.delta', turn_id: 't1', text: 'out your team.' });
    assert.deepEqual([...echo.words()], ['tell', 'me', 'about', 'your', 'team'], 'deltas join mid-word');
    echo.observe({
      type: 'agent.message',
      turn_id: 't1',
      text: 'Tell me about your team.',
      interrupted: false,
    });
    now = ECHO_TAIL_MS - 1;
    assert.ok(echo.words().has('team'), 'kept just after the turn ended (the recogniser lags)');
    echo.observe({ type: 'filler', turn_id: 't2', text: 'Let me think.' });
    assert.ok(echo.words().has('think'));
    now = ECHO_TAIL_MS + 1;
    assert.equal(echo.words().has('team'), false, 'forgotten after the tail');
    assert.ok(echo.words().has('think'), 't2 still runs');
    // A new turn ends the previous one even without agent.message (a filler-only turn).
    echo.observe({ type: 'agent.delta', turn_id: 't3', text: 'Right.' });
    now += ECHO_TAIL_MS + 1;
    assert.deepEqual([...echo.words()], ['right']);
  });
});
