// The evaluation set on hand-written scenarios (issue 27): prints the figures and every miss.
// It asserts only the set's size; the quality goals below are asserted once the engine meets them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EVALUATION_SET } from './index.ts';
import { evaluate, row } from './measure.ts';
import type { MechanicsKind } from './types.ts';

/**
 * The quality goals. Not asserted yet: the engine does not meet them (see the baseline in
 * docs/offline-engine.md); assert them here once it does.
 */
export const GOALS = {
  factRecallPercent: 90,
  instructionLinesSpoken: 0,
  exactRepeats: 0,
  closingsHonouredPercent: 100,
  probesInCharacterPercent: 100,
  followUpsUnderstoodPercent: 80,
  reasksAnsweredPercent: 90,
  scriptStepsFollowedPercent: 90,
  acknowledgementsPercent: 70,
} as const;

const MECHANICS: MechanicsKind[] = ['small_talk', 'off_topic', 'rude', 'ai_probe', 'closing'];

describe('evaluation on hand-written scenarios', () => {
  it('plays the set, prints the figures and misses, and keeps its size', async () => {
    const { results, byKind, total, grammar } = await evaluate(EVALUATION_SET);
    const table = [...byKind.entries()].map(([kind, f]) =>
      row(`${kind} (${f.scenarios})`, f, grammar.checked),
    );
    console.log([...table, row(`total (${total.scenarios})`, total, grammar.checked)].join('\n'));
    // Agreement errors link-grammar finds in what the persona says (no goal asserted yet; docs/offline-engine.md).
    if (grammar.checked)
      console.log(
        `grammar: ${grammar.unparsed.length} sentences not linked but with no agreement fix (not counted)`,
      );
    else console.log(`grammar: not checked, ${grammar.reason}`);
    const misses = results.flatMap((r) => r.misses.map((m) => `${r.name}: ${m}`));
    if (misses.length > 0) console.log(`misses (${misses.length}):\n${misses.join('\n')}`);

    assert.ok(EVALUATION_SET.length >= 20, `scenarios: ${EVALUATION_SET.length}`);
    assert.ok(byKind.size >= 6, `kinds: ${byKind.size}`);
    assert.ok(total.facts >= 300, `fact pairs: ${total.facts}`);
    for (const kind of MECHANICS)
      assert.ok(total.mechanicsTurns[kind] >= 10, `${kind} turns: ${total.mechanicsTurns[kind]}`);
    assert.ok(
      results.some(
        (r) =>
          r.figures.answerLabels.good > 0 &&
          r.figures.answerLabels.vague > 0 &&
          r.figures.answerLabels.off_script > 0,
      ),
      'a persona-led script with good, vague and off-script answers',
    );
  });
});
