// The conversation test set: the goals of docs/offline-engine.md, measured on every case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CONVERSATIONS } from './conversations/index.ts';
import { type ConversationFigures, runConversation } from './conversations/metrics.ts';

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);

function row(
  f: Pick<
    ConversationFigures,
    | 'name'
    | 'pairs'
    | 'recalled'
    | 'deflections'
    | 'characterBreaks'
    | 'repeatedSentences'
    | 'scriptTurns'
    | 'scriptFollowed'
  >,
) {
  return `${f.name.padEnd(36)} recall ${f.recalled}/${f.pairs} (${percent(f.recalled, f.pairs).toFixed(1)} %)  deflections ${f.deflections}  breaks ${f.characterBreaks}  repeated ${f.repeatedSentences}  script ${f.scriptFollowed}/${f.scriptTurns}`;
}

describe('conversation test set', () => {
  it('meets the goals: recall ≥ 90 %, no deflected covered fact, no character break, no repeated sentence', async () => {
    const figures: ConversationFigures[] = [];
    for (const c of CONVERSATIONS) figures.push(await runConversation(c));
    const sum = (pick: (f: ConversationFigures) => number, of = figures) =>
      of.reduce((n, f) => n + pick(f), 0);
    const total = {
      name: 'total',
      pairs: sum((f) => f.pairs),
      recalled: sum((f) => f.recalled),
      deflections: sum((f) => f.deflections),
      characterBreaks: sum((f) => f.characterBreaks),
      repeatedSentences: sum((f) => f.repeatedSentences),
      scriptTurns: sum((f) => f.scriptTurns),
      scriptFollowed: sum((f) => f.scriptFollowed),
    };
    console.log([...figures.map(row), row(total)].join('\n'));
    const misses = figures.flatMap((f) => f.misses.map((m) => `${f.name}: ${m}`));
    if (misses.length > 0) console.log(misses.join('\n'));

    assert.ok(CONVERSATIONS.length >= 6 && total.pairs >= 60, 'the set keeps its size');
    assert.ok(new Set(CONVERSATIONS.map((c) => c.context.scenarioType)).size >= 4, 'four scenario types');
    assert.ok(percent(total.recalled, total.pairs) >= 90, `recall ${total.recalled}/${total.pairs}`);
    for (const f of figures) {
      // The goal is on the total; a floor per case keeps one scenario from silently collapsing.
      assert.ok(percent(f.recalled, f.pairs) >= 75, `${f.name}: recall ${f.recalled}/${f.pairs}`);
      assert.equal(f.deflections, 0, `${f.name}: deflections of covered facts`);
      assert.equal(f.characterBreaks, 0, `${f.name}: character breaks`);
      assert.equal(f.repeatedSentences, 0, `${f.name}: repeated sentences`);
      assert.equal(f.scriptFollowed, f.scriptTurns, `${f.name}: script followed`);
      assert.ok(f.closed, `${f.name}: the call closes with end_call`);
    }
  });
});
