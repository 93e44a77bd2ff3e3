// Team analytics (docs/analytics.md): per scenario and goal the cohort's scores per period, each
// participant's progress, assignment completion and the CSV export, over real meetings analysed by
// the offline evaluator; another workspace's scenario is a 404, a bad query value a 400 naming it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { STRONG_INTERVIEW, WEAK_INTERVIEW } from '../../src/platform/analyses/engine/test-fixtures.ts';
import { csvCell } from '../../src/platform/analytics/csv.ts';
import { periodStart } from '../../src/platform/analytics/service.ts';
import {
  analysisRunner,
  createScenario,
  insertEndedMeeting,
  type ScenarioSetup,
  startAnalysisPlatform,
} from '../analyses/helpers.ts';
import { type ApiClient, bearer, expectError, ok, type TestPlatform } from '../harness.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** RFC 4180 as a spreadsheet reads it: quoted fields, doubled quotes, CRLF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += c;
  }
  return rows;
}

describe('analytics', () => {
  let t: TestPlatform;
  let ws: ApiClient;
  let setup: ScenarioSetup;
  const people: Record<string, string> = {};
  const meetings: Record<string, { id: string; at: Date }> = {};

  /** An ended meeting of `person` (or nobody) analysed later, at the clock's time. */
  const meeting = async (name: string, person: string | null, turns = STRONG_INTERVIEW) => {
    const { meetingId } = await insertEndedMeeting(t, ws.accountId, setup.scenarioId, turns);
    if (person) {
      await t.deps.db
        .updateTable('meetings')
        .set({ person_id: person })
        .where('id', '=', meetingId)
        .execute();
    }
    meetings[name] = { id: meetingId, at: t.clock.now() };
    return meetingId;
  };
  const scoresOf = async (meetingId: string) =>
    t.deps.db
      .selectFrom('analysis_goal_results')
      .innerJoin('analyses', 'analyses.id', 'analysis_goal_results.analysis_id')
      .select(['analysis_goal_results.goal_id', 'score', 'score_min', 'score_max'])
      .where('analyses.meeting_id', '=', meetingId)
      .orderBy('position')
      .execute();
  const percentOf = async (meetingId: string) => {
    const scores = await scoresOf(meetingId);
    return (
      scores.reduce((sum, s) => sum + ((s.score - s.score_min) / (s.score_max - s.score_min)) * 100, 0) /
      scores.length
    );
  };
  const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

  before(async () => {
    t = await startAnalysisPlatform();
    ws = await t.workspace();
    setup = await createScenario(ws);
    for (const [key, body] of Object.entries({
      priya: { name: 'Priya Raman', email: 'priya@example.com', external_id: 'emp-1' },
      ana: { name: 'Ana Ruiz' },
      carl: { name: '=SUM(1,2) "Carl"', email: 'carl@example.com' },
    })) {
      people[key] = ok(await ws.call('POST', '/people', body), 201).data.id;
    }
    // Priya improves over three weeks; Ana practises once; one meeting is nobody's; one is not analysed.
    await meeting('priyaFirst', people.priya!, WEAK_INTERVIEW);
    t.clock.advance(HOUR);
    await meeting('ana', people.ana!, STRONG_INTERVIEW);
    await meeting('nobody', null, WEAK_INTERVIEW);
    await analysisRunner(t).drain();
    t.clock.advance(21 * DAY);
    await meeting('priyaLatest', people.priya!, STRONG_INTERVIEW);
    await analysisRunner(t).drain();
    const pending = await insertEndedMeeting(t, ws.accountId, setup.scenarioId, STRONG_INTERVIEW, {
      enqueue: false,
    });
    await t.deps.db
      .updateTable('meetings')
      .set({ person_id: people.priya! })
      .where('id', '=', pending.meetingId)
      .execute();
  });
  after(() => t.close());

  it('gives each goal the cohort’s scores per week, on the goal’s own scale', async () => {
    const data = ok(await ws.call('GET', `/analytics/scenarios/${setup.scenarioId}`)).data;
    assert.equal(data.scenario.id, setup.scenarioId);
    assert.equal(data.interval, 'week');
    assert.equal(data.summary.meetings, 4, 'the unanalysed meeting does not count');
    assert.equal(data.summary.participants, 2);
    assert.equal(data.summary.meetings_without_person, 1);
    assert.deepEqual(
      data.goals.map((goal: { goal_id: string }) => goal.goal_id),
      setup.goalIds,
      'the goals in the scenario’s order',
    );
    // The expected series: the four analysed meetings grouped by their UTC week (Monday first).
    const analysed = ['priyaFirst', 'ana', 'nobody', 'priyaLatest'];
    for (const [index, goal] of data.goals.entries()) {
      assert.equal(goal.score_max, index === 2 ? 5 : 10, `${goal.name}: its own scale`);
      assert.equal(goal.meetings, 4);
      const byWeek = new Map<string, number[]>();
      for (const name of analysed) {
        const week = periodStart(meetings[name]!.at, 'week').toISOString();
        const score = (await scoresOf(meetings[name]!.id))[index]!.score;
        byWeek.set(week, [...(byWeek.get(week) ?? []), score]);
      }
      assert.deepEqual(
        goal.series,
        [...byWeek.entries()].map(([week, scores]) => ({
          period_start: week,
          meetings: scores.length,
          average: round(scores.reduce((a, b) => a + b, 0) / scores.length, 2),
          min: Math.min(...scores),
          max: Math.max(...scores),
        })),
        goal.name,
      );
      assert.ok(goal.series.length >= 2, 'three weeks apart: two periods at least');
    }
    assert.equal(
      periodStart(new Date('2026-11-29T23:30:00Z'), 'week').toISOString(),
      '2026-11-23T00:00:00.000Z',
    );
    assert.equal(
      periodStart(new Date('2026-11-30T00:00:00Z'), 'week').toISOString(),
      '2026-11-30T00:00:00.000Z',
    );
    assert.equal(
      periodStart(new Date('2026-11-30T10:00:00Z'), 'month').toISOString(),
      '2026-11-01T00:00:00.000Z',
    );

    const monthly = ok(await ws.call('GET', `/analytics/scenarios/${setup.scenarioId}?interval=month`)).data;
    const months = new Set(Object.values(meetings).map((m) => periodStart(m.at, 'month').toISOString()));
    assert.equal(monthly.goals[0].series.length, months.size);
    assert.ok(
      monthly.goals[0].series.every((p: { period_start: string }) =>
        p.period_start.endsWith('-01T00:00:00.000Z'),
      ),
    );

    // A window: only the latest meeting.
    const since = new Date(meetings.priyaLatest!.at.getTime() - DAY).toISOString();
    const windowed = ok(
      await ws.call('GET', `/analytics/scenarios/${setup.scenarioId}?since=${encodeURIComponent(since)}`),
    ).data;
    assert.equal(windowed.summary.meetings, 1);
    assert.equal(windowed.since, since);
    assert.equal(windowed.goals[0].series.length, 1);
    const untilDay = meetings.priyaFirst!.at.toISOString().slice(0, 10);
    const untilDayData = ok(
      await ws.call('GET', `/analytics/scenarios/${setup.scenarioId}?until=${untilDay}`),
    ).data;
    assert.ok(untilDayData.summary.meetings >= 1, 'a date alone takes in the whole day');
    assert.ok(untilDayData.summary.meetings <= 3);
  });

  it('shows each participant’s progress and the completion of assignments', async () => {
    // Priya's part is done, Ana has started hers, Carl has not started one and let another pass its due date.
    const assignment = ok(
      await ws.call('POST', '/assignments', {
        scenario_id: setup.scenarioId,
        person_ids: [people.priya, people.ana, people.carl],
      }),
      201,
    ).data;
    const targets = await t.deps.db
      .selectFrom('assignment_people')
      .select(['id', 'person_id'])
      .where('assignment_id', '=', assignment.id)
      .execute();
    const targetOf = (person: string) => targets.find((target) => target.person_id === person)!.id;
    await t.deps.db
      .updateTable('assignment_people')
      .set({ completed_at: t.clock.now(), completed_meeting_id: meetings.priyaLatest!.id })
      .where('id', '=', targetOf(people.priya!))
      .execute();
    await t.deps.db
      .updateTable('meetings')
      .set({ assignment_person_id: targetOf(people.ana!) })
      .where('id', '=', meetings.ana!.id)
      .execute();
    t.clock.advance(HOUR);
    ok(
      await ws.call('POST', '/assignments', {
        scenario_id: setup.scenarioId,
        person_ids: [people.carl],
        due_at: new Date(t.clock.now().getTime() + DAY).toISOString(),
      }),
      201,
    );
    t.clock.advance(2 * DAY);

    const data = ok(await ws.call('GET', `/analytics/scenarios/${setup.scenarioId}`)).data;
    assert.deepEqual(data.assignments, {
      total: 4,
      not_started: 1,
      in_progress: 1,
      done: 1,
      overdue: 1,
      completion_rate: 0.25,
    });
    const byName = Object.fromEntries(
      data.participants.map((row: { person: { name: string } }) => [row.person.name, row]),
    );
    assert.deepEqual(Object.keys(byName).sort(), ['=SUM(1,2) "Carl"', 'Ana Ruiz', 'Priya Raman'].sort());
    const priya = byName['Priya Raman'];
    assert.equal(priya.meetings, 2, 'her unanalysed meeting does not count');
    assert.equal(priya.person.external_id, 'emp-1');
    const first = round(await percentOf(meetings.priyaFirst!.id), 1);
    const latest = round(await percentOf(meetings.priyaLatest!.id), 1);
    assert.equal(priya.first_average_percent, first);
    assert.equal(priya.latest_average_percent, latest);
    assert.ok(latest > first, 'the strong interview scored higher');
    assert.ok(Math.abs(priya.change_points - (latest - first)) <= 0.11);
    assert.equal(priya.last_meeting_at, meetings.priyaLatest!.at.toISOString());
    assert.equal(priya.assignment_status, 'done');
    const latestScores = await scoresOf(meetings.priyaLatest!.id);
    assert.deepEqual(
      priya.latest_scores.map((s: { goal_id: string; score: number }) => [s.goal_id, s.score]),
      latestScores.map((s) => [s.goal_id, s.score]),
    );
    assert.equal(byName['Ana Ruiz'].meetings, 1);
    assert.equal(byName['Ana Ruiz'].change_points, null, 'one meeting: no change yet');
    assert.equal(byName['Ana Ruiz'].assignment_status, 'in_progress');
    const carl = byName['=SUM(1,2) "Carl"'];
    assert.equal(carl.meetings, 0);
    assert.equal(carl.latest_average_percent, null);
    assert.equal(carl.assignment_status, 'overdue', 'his newest assignment');

    const overview = ok(await ws.call('GET', '/analytics/scenarios')).data;
    const row = overview.find(
      (entry: { scenario: { id: string } }) => entry.scenario.id === setup.scenarioId,
    );
    assert.equal(row.meetings, 4);
    assert.equal(row.participants, 2);
    const all = await Promise.all(
      ['priyaFirst', 'ana', 'nobody', 'priyaLatest'].map((n) => percentOf(meetings[n]!.id)),
    );
    assert.equal(row.average_percent, round(all.reduce((a, b) => a + b, 0) / all.length, 1));
    assert.equal(row.last_meeting_at, meetings.priyaLatest!.at.toISOString());
    assert.deepEqual(row.assignments, data.assignments);
    assert.ok(
      overview.every((entry: { meetings: number; assignments: { total: number } }) => entry.meetings >= 0),
      'every live scenario is listed, practised or not',
    );
    assert.ok(overview.length > 1, 'the seeded scenarios too');
  });

  it('exports every goal result as CSV, text that looks like a formula defused', async () => {
    await t.deps.db
      .updateTable('meetings')
      .set({ person_id: people.carl! })
      .where('id', '=', meetings.nobody!.id)
      .execute();
    const response = await ws.call('GET', `/analytics/scenarios/${setup.scenarioId}/results.csv`);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(
      String(response.headers['content-disposition']),
      /^attachment; filename="backend-screen-results-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    assert.ok(response.body.startsWith('\uFEFF'), 'a byte order mark for spreadsheets');
    const rows = parseCsv(response.body.slice(1));
    assert.deepEqual(rows[0], [
      'meeting_id',
      'meeting_at',
      'person_id',
      'person_name',
      'person_email',
      'person_external_id',
      'goal_id',
      'goal',
      'score',
      'score_min',
      'score_max',
      'feedback',
    ]);
    assert.equal(rows.length, 1 + 4 * 3, 'one row per analysed meeting and goal');
    const priyaRows = rows.filter((row) => row[2] === people.priya);
    assert.equal(priyaRows.length, 6);
    const [priyaFirst] = priyaRows;
    const firstScores = await scoresOf(meetings.priyaFirst!.id);
    assert.deepEqual(priyaFirst!.slice(0, 11), [
      meetings.priyaFirst!.id,
      meetings.priyaFirst!.at.toISOString(),
      people.priya,
      'Priya Raman',
      'priya@example.com',
      'emp-1',
      setup.goalIds[0],
      'Communicate clearly',
      String(firstScores[0]!.score),
      String(firstScores[0]!.score_min),
      String(firstScores[0]!.score_max),
    ]);
    assert.ok(priyaFirst![11]!.length > 0, 'the feedback');
    const carlRow = rows.find((row) => row[2] === people.carl)!;
    assert.equal(carlRow[3], '\'=SUM(1,2) "Carl"', 'a leading = is written as text');
    assert.ok(response.body.includes('"\'=SUM(1,2) ""Carl"""'), 'quoted, quotes doubled');
    assert.deepEqual(
      ['=1+1', '+1', '-1', '@A1', '\t=1', 'plain', 'a,b', 'a"b', 'two\nlines', 3.5, -2, null].map(csvCell),
      ["'=1+1", "'+1", "'-1", "'@A1", "'\t=1", 'plain', '"a,b"', '"a""b"', '"two\nlines"', '3.5', '-2', ''],
    );

    const since = new Date(meetings.priyaLatest!.at.getTime() - HOUR).toISOString();
    const windowed = await ws.call(
      'GET',
      `/analytics/scenarios/${setup.scenarioId}/results.csv?since=${encodeURIComponent(since)}`,
    );
    assert.equal(parseCsv(windowed.body.slice(1)).length, 1 + 3);
  });

  it('keeps workspaces apart and names a bad query value', async () => {
    const stranger = await t.workspace();
    // Every member may read analytics, a viewer too (the user token of the first workspace has
    // expired by now: the clock moved weeks on).
    const viewer = await t.member(stranger, 'viewer');
    const seeded = ok(await stranger.call('GET', '/scenarios')).data[0].id;
    for (const path of [
      '/analytics/scenarios',
      `/analytics/scenarios/${seeded}`,
      `/analytics/scenarios/${seeded}/results.csv`,
    ]) {
      const read = await t.app.inject({ method: 'GET', url: `/v1${path}`, headers: bearer(viewer.token) });
      assert.equal(read.statusCode, 200, `${path}: ${read.body}`);
    }
    for (const path of ['', '/results.csv']) {
      expectError(
        await stranger.call('GET', `/analytics/scenarios/${setup.scenarioId}${path}`),
        404,
        'scenario_id',
      );
    }
    expectError(await ws.call('GET', '/analytics/scenarios/not-a-uuid'), 404, 'scenario_id');
    const theirs = ok(await stranger.call('GET', '/analytics/scenarios')).data;
    assert.ok(theirs.every((row: { scenario: { id: string } }) => row.scenario.id !== setup.scenarioId));
    assert.ok(
      theirs.every((row: { meetings: number }) => row.meetings === 0),
      'none of our meetings',
    );

    const base = `/analytics/scenarios/${setup.scenarioId}`;
    expectError(await ws.call('GET', `${base}?interval=day`), 400, 'interval');
    expectError(await ws.call('GET', `${base}?since=last-week`), 400, 'since');
    expectError(await ws.call('GET', `${base}?until=2026-13-45`), 400, 'until');
    expectError(await ws.call('GET', `${base}?since=2026-11-02&until=2026-11-01`), 400, 'until');
    expectError(await ws.call('GET', `${base}?period=week`), 400, 'period');
    expectError(await ws.call('GET', `${base}/results.csv?since=soon`), 400, 'since');
    expectError(await ws.call('GET', `${base}/results.csv?interval=week`), 400, 'interval');
  });
});
