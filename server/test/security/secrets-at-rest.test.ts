import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { dumpTables, insertMeeting, insertScenario } from '../fixtures/rows.ts';
import { startPlatform, type TestPlatform } from '../harness.ts';

let t: TestPlatform;
before(async () => {
  t = await startPlatform();
});
after(() => t.close());

/** Every table of the schema: what `pg_dump` would write, whichever module the row belongs to. */
async function everyTable(): Promise<string[]> {
  const { rows } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'
    order by table_name`.execute(t.deps.db);
  return rows.map((row) => row.table_name);
}

describe('secrets at rest', () => {
  test('a dump of every table holds no guardrail prompt, feedback comment, agent API key or function secret', async () => {
    const c = await t.workspace();
    const marker = randomUUID().replaceAll('-', '');
    const secrets = {
      guardrailPrompt: `GUARDRAIL-${marker} never discuss the salary band`,
      feedbackComment: `FEEDBACK-${marker} the avatar froze`,
      agentKey: `sk-AGENT-${marker}`,
      functionSecret: `FUNCTION-${marker}`,
    };
    // Idempotency keys on every write: stored responses (which echo prompts and secrets) are in the dump too.
    let n = 0;
    const write = async (method: string, url: string, payload?: unknown) => {
      const response = await c.call(method, url, payload, { 'idempotency-key': `${marker}-${++n}` });
      assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
      return response.json();
    };

    const guardrail = (
      await write('POST', '/guardrails', {
        guardrail_name: `g-${marker}`,
        guardrail_prompt: secrets.guardrailPrompt,
      })
    ).data;
    await write('PATCH', `/guardrails/${guardrail.id}`, {
      guardrail_prompt: `${secrets.guardrailPrompt} (v2)`,
    });

    const persona = await write('POST', '/personas', {
      name: 'Dana Whitfield',
      job_title: 'VP of Engineering',
    });
    const scenario = await write('POST', '/scenarios', {
      name: 'Screen',
      type: 'interview',
      persona_id: persona.id,
      custom_agent_enabled: true,
      custom_agent_config: { base_url: 'https://agent.example.com/v1', api_key: secrets.agentKey },
    });
    await write('PUT', `/scenarios/${scenario.id}`, {
      custom_agent_config: { api_key: `${secrets.agentKey}-rotated` },
    });
    await write('POST', `/scenarios/${scenario.id}/guardrails/${guardrail.id}/attach`);

    const chosen = (
      await write('POST', '/custom-functions', {
        name: `chosen_${marker}`,
        webhook_url: 'https://tools.example.com/a',
        webhook_secret: secrets.functionSecret,
      })
    ).data;
    const generated = (
      await write('POST', '/custom-functions', {
        name: `generated_${marker}`,
        webhook_url: 'https://tools.example.com/b',
      })
    ).data;
    const rotated = (await write('POST', `/custom-functions/${generated.id}/rotate-secret`)).data;
    await write('PATCH', `/custom-functions/${chosen.id}`, { webhook_secret: `${secrets.functionSecret}-2` });
    await write('POST', `/scenarios/${scenario.id}/custom-functions/${chosen.id}/attach`);

    // An import into another workspace creates the function again, with a fresh secret shown once.
    const exported = (await c.call('GET', `/scenarios/${scenario.id}/export`)).json();
    const other = await t.workspace();
    const imported = await other.call('POST', '/scenarios/import', exported, {
      'idempotency-key': `${marker}-import`,
    });
    assert.equal(imported.statusCode, 201, imported.body);
    const importedSecret = imported.json().custom_function_secrets[0].webhook_secret;

    const meetingId = await insertMeeting(t.deps, c.accountId, await insertScenario(t.deps, c.accountId));
    await write('POST', `/meetings/${meetingId}/feedback`, {
      rating: 'had_issues',
      comment: secrets.feedbackComment,
    });
    await write('POST', `/meetings/${meetingId}/feedback`, {
      rating: 'had_issues',
      comment: `${secrets.feedbackComment} (edited)`,
    });

    const tables = await everyTable();
    for (const table of [
      'guardrails',
      'scenarios',
      'custom_functions',
      'meeting_feedback',
      'idempotency_keys',
    ]) {
      assert.ok(tables.includes(table), table);
    }
    const dump = await dumpTables(t.deps, tables);
    for (const [what, value] of Object.entries({
      ...secrets,
      generatedSecret: generated.webhook_secret,
      rotatedSecret: rotated.webhook_secret,
      importedSecret,
    })) {
      assert.ok(!dump.includes(value), `${what} is in the dump in clear`);
    }
    // The marker still reaches the tables in the open where it is not a secret (a name), so the
    // dump really covers the rows written above.
    assert.ok(dump.includes(`g-${marker}`));
  });
});
