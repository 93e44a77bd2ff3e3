import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_SENTENCE_CHARS, SentenceSplitter } from './sentences.ts';

/** Feeds `text` in pieces of `size` characters and collects the sentences as they complete. */
function stream(text: string, size: number): { during: string[][]; all: string[] } {
  const splitter = new SentenceSplitter('en');
  const during: string[][] = [];
  for (let at = 0; at < text.length; at += size) during.push(splitter.push(text.slice(at, at + size)));
  const all = [...during.flat(), ...splitter.flush()];
  return { during, all };
}

describe('SentenceSplitter', () => {
  it('hands out each sentence once text follows it, the last one at the end', () => {
    const splitter = new SentenceSplitter();
    assert.deepEqual(splitter.push('Thanks for that. Tell me'), ['Thanks for that.']);
    assert.deepEqual(splitter.push(' about the project'), []);
    assert.deepEqual(splitter.push('? What did you'), ['Tell me about the project?']);
    assert.deepEqual(splitter.flush(), ['What did you']);
    assert.deepEqual(splitter.flush(), []);
  });

  it('does not cut a number or an ellipsis that arrives in pieces', () => {
    const { all } = stream('It costs 3.5 million dollars. Wait... what?! Yes.', 3);
    assert.deepEqual(all, ['It costs 3.5 million dollars.', 'Wait... what?!', 'Yes.']);
  });

  it('gives the same sentences however the text is chunked', () => {
    const text = 'Hello, I am Jane. I lead the platform team here. Shall we begin? Great!';
    const whole = stream(text, text.length).all;
    assert.equal(whole.length, 4);
    for (const size of [1, 2, 5, 17]) assert.deepEqual(stream(text, size).all, whole, `chunks of ${size}`);
  });

  it('cuts a run-on reply at a clause so synthesis can start', () => {
    const clause = 'and then we migrated another service to the new cluster, ';
    const { during, all } = stream(clause.repeat(12), 20);
    assert.ok(during.flat().length >= 1, 'a piece came out before the end');
    for (const piece of all) assert.ok(piece.length <= MAX_SENTENCE_CHARS, piece);
    assert.equal(all.join(' ').replace(/\s+/g, ' '), clause.repeat(12).trim().replace(/\s+/g, ' '));
  });

  it("hands out the reply's first clause on its own, before its sentence is complete", () => {
    const splitter = new SentenceSplitter();
    assert.deepEqual(splitter.push('I have been with the practice nine years, so'), [
      'I have been with the practice nine years,',
    ]);
    assert.deepEqual(splitter.push(' this bill surprised me. It was, frankly, a shock.'), [
      'so this bill surprised me.',
    ]);
    assert.deepEqual(splitter.flush(), ['It was, frankly, a shock.'], 'only the first clause of the reply');
    const text = 'Our renewal is due in March, and the board wants a decision first. Fine.';
    const whole = stream(text, text.length).all;
    assert.deepEqual(whole, [
      'Our renewal is due in March,',
      'and the board wants a decision first.',
      'Fine.',
    ]);
    for (const size of [1, 3, 7, 16]) assert.deepEqual(stream(text, size).all, whole, `chunks of ${size}`);
  });

  it('keeps a short opening and a clause with nothing after it whole', () => {
    assert.deepEqual(stream('Well, I think the price is too high.', 4).all, [
      'Well, I think the price is too high.',
    ]);
    assert.deepEqual(stream('Hi, I am Jane. Shall we begin?', 2).all, ['Hi, I am Jane.', 'Shall we begin?']);
    assert.deepEqual(stream('That is the number I was given, …', 5).all, [
      'That is the number I was given, …',
    ]);
  });

  it('skips pieces with nothing to say', () => {
    const splitter = new SentenceSplitter();
    assert.deepEqual([...splitter.push('Right. '), ...splitter.push('… ')], ['Right.']);
    assert.deepEqual(splitter.flush(), [], 'a lone ellipsis is not spoken');
  });
});
