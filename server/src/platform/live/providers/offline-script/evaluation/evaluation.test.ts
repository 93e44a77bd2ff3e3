// The evaluation set on hand-written scenarios (issue 27): prints the figures and every miss, and
// asserts the quality goals the engine meets; the ones it does not meet yet hold a floor at the
// level reached, so that no change goes back on them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HELD_OUT_SET } from './held-out.ts';
import { HELD_OUT_2_SET } from './held-out-2.ts';
import { HELD_OUT_3_SET } from './held-out-3.ts';
import { EVALUATION_SET } from './index.ts';
import { type Evaluation, evaluate, row } from './measure.ts';
import type { EvaluationScenario, MechanicsKind } from './types.ts';

/** The quality goals of issue 27 (docs/offline-engine.md). */
export const GOALS = {
  factRecallPercent: 90,
  instructionLinesSpoken: 0,
  exactRepeats: 0,
  grammarErrors: 0,
  closingsHonouredPercent: 100,
  probesInCharacterPercent: 100,
  otherMechanicsHandledPercent: 100,
  followUpsUnderstoodPercent: 90,
  reasksAnsweredPercent: 90,
  scriptStepsFollowedPercent: 90,
  acknowledgementsPercent: 90,
} as const;

/** Not met yet: the level reached (2026-11-30), below which a change goes backwards. */
const FLOORS = {
  factRecallPercent: 76,
  followUpsUnderstoodPercent: 66,
} as const;

const percent = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);

const MECHANICS: MechanicsKind[] = ['small_talk', 'off_topic', 'rude', 'ai_probe', 'closing'];

/** Plays a held-out set and prints its figures and every miss. */
async function playHeldOut(label: string, set: readonly EvaluationScenario[]): Promise<Evaluation> {
  const played = await evaluate(set);
  console.log(
    `${label}:\n${row(`${label} (${played.total.scenarios})`, played.total, played.grammar.checked)}`,
  );
  const misses = played.results.flatMap((r) => r.misses.map((m) => `${r.name}: ${m}`));
  if (misses.length > 0) console.log(`${label} misses (${misses.length}):\n${misses.join('\n')}`);
  return played;
}

/** The goals that do not depend on ranking: no instruction line, no repeat, every closing and probe. */
function holdsMechanics(label: string, { total }: Evaluation): void {
  assert.equal(total.instructionLinesSpoken, 0, `${label}: instruction lines spoken`);
  assert.equal(total.repeats, 0, `${label}: sentences said twice in a call`);
  assert.equal(total.closingsHonoured, total.closings, `${label}: closings honoured`);
  assert.equal(total.probesInCharacter, total.probes, `${label}: AI probes in character`);
}

describe('evaluation on hand-written scenarios', () => {
  it('plays the set, prints the figures and misses, and keeps its size', async () => {
    const { results, byKind, total, grammar } = await evaluate(EVALUATION_SET);
    const table = [...byKind.entries()].map(([kind, f]) =>
      row(`${kind} (${f.scenarios})`, f, grammar.checked),
    );
    console.log([...table, row(`total (${total.scenarios})`, total, grammar.checked)].join('\n'));
    // Agreement errors link-grammar finds in what the persona says (docs/offline-engine.md).
    if (grammar.checked)
      console.log(
        `grammar: ${grammar.unparsed.length} sentences not linked but with no agreement fix (not counted)`,
      );
    else console.log(`grammar: not checked, ${grammar.reason}`);
    const misses = results.flatMap((r) => r.misses.map((m) => `${r.name}: ${m}`));
    if (misses.length > 0) console.log(`misses (${misses.length}):\n${misses.join('\n')}`);

    assert.equal(total.instructionLinesSpoken, GOALS.instructionLinesSpoken, 'instruction lines spoken');
    assert.equal(total.repeats, GOALS.exactRepeats, 'sentences said twice in a call');
    if (grammar.checked) assert.equal(total.grammarErrors, GOALS.grammarErrors, 'agreement errors');
    const atLeast = (label: string, part: number, whole: number, goal: number) =>
      assert.ok(percent(part, whole) >= goal, `${label}: ${part}/${whole} below ${goal} %`);
    atLeast('closings honoured', total.closingsHonoured, total.closings, GOALS.closingsHonouredPercent);
    atLeast('AI probes in character', total.probesInCharacter, total.probes, GOALS.probesInCharacterPercent);
    atLeast(
      'small talk, off-topic and rudeness in character',
      total.otherMechanicsHandled,
      total.otherMechanics,
      GOALS.otherMechanicsHandledPercent,
    );
    atLeast(
      'script steps followed',
      total.scriptFollowed,
      total.scriptTurns,
      GOALS.scriptStepsFollowedPercent,
    );
    atLeast('answers acknowledged', total.acknowledged, total.acknowledgeable, GOALS.acknowledgementsPercent);
    atLeast('fact recall (floor)', total.recalled, total.facts, FLOORS.factRecallPercent);
    atLeast(
      'follow-ups (floor)',
      total.followUpsUnderstood,
      total.followUps,
      FLOORS.followUpsUnderstoodPercent,
    );
    atLeast('re-asks answered', total.reasksAnswered, total.reasks, GOALS.reasksAnsweredPercent);

    // The held-out scenarios (held-out.ts): written later, never tuned against; printed, and held to
    // the goals that do not depend on ranking.
    holdsMechanics('held-out', await playHeldOut('held-out', HELD_OUT_SET));
    // A second held-out set (held-out-2.ts), written by a reader who never saw the engine: printed
    // with its misses, as the honest figure for scenarios nobody shaped for it, and held to the goals
    // that do not depend on ranking.
    const heldOut2 = await playHeldOut('held-out 2', HELD_OUT_2_SET);
    holdsMechanics('held-out 2', heldOut2);
    if (heldOut2.grammar.checked) assert.equal(heldOut2.total.grammarErrors, 0, 'held-out 2: grammar errors');
    // A third held-out set (held-out-3.ts), written like the second and never read by the engine's
    // developer before it was first measured: printed with its misses, never asserted on.
    await playHeldOut('held-out 3', HELD_OUT_3_SET);

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
