import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { multipart, pdfWithText, startFakeLlm } from '../fixtures/scripted-llm.ts';
import { bearer, expectError, ok, startPlatform, type TestPlatform } from '../harness.ts';

const JOB_DESCRIPTION = `# Senior Backend Engineer

About Acme Robotics:
Acme Robotics builds software for warehouse automation.

Responsibilities:
- Design and build scalable APIs in Go and PostgreSQL
- Run services in production on Kubernetes
- Mentor other engineers

Requirements:
- 5+ years of backend development experience
- Strong knowledge of distributed systems
- Experience with Kafka and AWS
`;

async function generate(
  t: TestPlatform,
  key: string,
  fields: Record<string, string>,
  file?: Parameters<typeof multipart>[1],
  headers: Record<string, string> = {},
) {
  const body = multipart(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/v1/scenarios/create-with-gpt',
    headers: { ...bearer(key), ...body.headers, ...headers },
    payload: body.payload,
  });
}

function assertCompleteScenario(data: Record<string, any>) {
  assert.ok(data.Persona?.name, 'persona');
  assert.ok(data.Persona.job_title);
  assert.match(data.prompt, /^\s*1\. \S/m);
  assert.match(data.prompt, /^\s*3\. \S/m);
  assert.ok(data.Goals.length >= 3);
  for (const goal of data.Goals) assert.match(goal.instructions, /\d+\s*-\s*\d+/);
  assert.ok(data.welcome_message.length > 10);
  assert.equal(data.default_kind, null);
}

// One database for both platforms: the second boots without a fresh PGlite and migrations.
const offline = await startPlatform();
const llm = await startFakeLlm();
const withLlm = await startPlatform({
  env: { LLM_BASE_URL: llm.baseUrl, LLM_API_KEY: 'llm-key', LLM_MODEL: 'test-model' },
  database: offline.deps.database,
});
after(async () => {
  await withLlm.close();
  await offline.close();
  await llm.close();
});

describe('create-with-gpt without an LLM (rule-based generator)', () => {
  const t = offline;

  test('builds an interview from a job description in userInput', async () => {
    const a = await t.workspace();
    const response = await generate(t, a.key, {
      userInput: `Interview practice for this job:\n${JOB_DESCRIPTION}`,
      duration: '20',
    });
    const body = ok(response, 201);
    assert.equal(body.success, true);
    assert.equal(body.generator, 'offline');
    assert.equal(body.scenario_id, body.data.id);
    assertCompleteScenario(body.data);
    assert.equal(body.data.type, 'interview');
    assert.equal(body.data.call_duration, 20);
    assert.match(body.data.name, /Senior Backend Engineer/);
    assert.match(body.data.prompt, /Acme Robotics/);
    assert.match(body.data.prompt, /Kafka|Go|PostgreSQL/);
    const stored = ok(await a.call('GET', `/scenarios/${body.scenario_id}`));
    assert.deepEqual(stored, body.data);
  });

  test('reads an uploaded Markdown or PDF job description', async () => {
    const a = await t.workspace();
    const markdown = ok(
      await generate(
        t,
        a.key,
        { userInput: 'Mock interview please', duration: '30' },
        {
          filename: 'job.md',
          contentType: 'text/markdown',
          data: Buffer.from(JOB_DESCRIPTION),
        },
      ),
      201,
    );
    assert.match(markdown.data.name, /Senior Backend Engineer/);

    const pdf = pdfWithText([
      'Staff Data Engineer at Globex',
      'Requirements: 7+ years with Python, Spark and Airflow',
      'You will build data pipelines for analytics teams.',
    ]);
    const fromPdf = ok(
      await generate(t, a.key, {}, { filename: 'jd.pdf', contentType: 'application/pdf', data: pdf }),
      201,
    );
    assertCompleteScenario(fromPdf.data);
    assert.match(fromPdf.data.name, /Staff Data Engineer/);
    assert.match(fromPdf.data.prompt, /Spark|Airflow|Python/);
    assert.equal(fromPdf.data.call_duration, 30);
  });

  test('role-play, coaching and brainstorm requests get fitting scenarios', async () => {
    const a = await t.workspace();
    const sales = ok(
      await generate(t, a.key, {
        userInput: 'Practise selling our analytics platform to a sceptical CFO at a retail chain',
      }),
      201,
    );
    assert.equal(sales.data.type, 'roleplay');
    assert.match(sales.data.Persona.job_title, /CFO/);
    assert.equal(sales.data.Persona.demeanor, 'critical');
    const coaching = ok(
      await generate(t, a.key, { userInput: 'Help me practise giving difficult feedback to a team member' }),
      201,
    );
    assert.equal(coaching.data.type, 'upskill');
    const ideas = ok(
      await generate(t, a.key, { userInput: 'Brainstorm ideas to reduce churn in our mobile app' }),
      201,
    );
    assert.equal(ideas.data.type, 'brainstorm');
    for (const body of [sales, coaching, ideas]) assertCompleteScenario(body.data);
  });

  test('refuses missing input, bad durations and unreadable or unsupported files, naming the field', async () => {
    const a = await t.workspace();
    expectError(await generate(t, a.key, {}), 400, 'userInput');
    expectError(await generate(t, a.key, { userInput: '   ' }), 400, 'userInput');
    expectError(await generate(t, a.key, { userInput: 'x', duration: '0' }), 400, 'duration');
    expectError(await generate(t, a.key, { userInput: 'x', duration: '241' }), 400, 'duration');
    expectError(await generate(t, a.key, { userInput: 'x', duration: 'soon' }), 400, 'duration');
    expectError(await generate(t, a.key, { userInput: 'x', membership_id: 'm' }), 400, 'membership_id');
    expectError(await generate(t, a.key, { userInput: 'Interview\u0000 practice' }), 400, 'userInput');
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    expectError(
      await generate(
        t,
        a.key,
        { userInput: 'x' },
        { filename: 'photo.png', contentType: 'image/png', data: png },
      ),
      400,
      'file',
    );
    expectError(
      await generate(
        t,
        a.key,
        { userInput: 'x' },
        { filename: 'cv.txt', contentType: 'text/plain', data: Buffer.from([0x41, 0, 0x42, 0xff]) },
      ),
      400,
      'file',
    );
    expectError(
      await generate(
        t,
        a.key,
        { userInput: 'x' },
        {
          filename: 'cv.pdf',
          contentType: 'application/pdf',
          data: Buffer.from('%PDF-1.4 this is not really a pdf'),
        },
      ),
      400,
      'file',
    );
    expectError(
      await generate(
        t,
        a.key,
        {},
        { filename: 'empty.txt', contentType: 'text/plain', data: Buffer.alloc(0) },
      ),
      400,
      'file',
    );
    expectError(
      await generate(
        t,
        a.key,
        { userInput: 'x' },
        {
          filename: 'huge.txt',
          contentType: 'text/plain',
          data: Buffer.alloc(5 * 1024 * 1024 + 1, 0x61),
        },
      ),
      413,
      'file',
    );
    // Five megabytes exactly is accepted.
    ok(
      await generate(
        t,
        a.key,
        { userInput: 'Interview for a Product Designer' },
        {
          filename: 'big.txt',
          contentType: 'text/plain',
          data: Buffer.alloc(5 * 1024 * 1024, 0x61),
        },
      ),
      201,
    );
  });

  test('idempotent: the same request and key replays; another file is another request', async () => {
    const a = await t.workspace();
    const file = { filename: 'jd.md', contentType: 'text/markdown', data: Buffer.from(JOB_DESCRIPTION) };
    const first = ok(
      await generate(t, a.key, { userInput: 'Interview' }, file, { 'idempotency-key': 'gen-1' }),
      201,
    );
    const replay = await generate(t, a.key, { userInput: 'Interview' }, file, { 'idempotency-key': 'gen-1' });
    assert.equal(replay.headers['idempotency-replayed'], 'true');
    assert.equal(replay.json().scenario_id, first.scenario_id);
    const other = { ...file, data: Buffer.from(`${JOB_DESCRIPTION}\nBenefits: remote work`) };
    expectError(
      await generate(t, a.key, { userInput: 'Interview' }, other, { 'idempotency-key': 'gen-1' }),
      422,
    );
  });
});

const VALID = {
  scenario: {
    name: 'Senior Backend Engineer interview',
    type: 'interview',
    description: 'A mock interview for a senior backend role at Acme Robotics.',
    prompt: [
      '## Your role',
      'You are Priya, an engineering manager at Acme Robotics interviewing a backend engineer candidate for the platform team.',
      '## Context',
      '- Go, PostgreSQL, Kubernetes',
      '## Conversation flow',
      '1. Could you introduce yourself?',
      '2. Tell me about an API you designed in Go.',
      '3. How do you run services on Kubernetes?',
      '4. What would you achieve in ninety days?',
      '## Rules',
      '- One question at a time.',
    ].join('\n'),
    welcome_message: 'Hi, I am Priya from Acme Robotics. Thanks for joining.',
  },
  persona: {
    name: 'Priya Raman',
    job_title: 'Engineering Manager',
    demeanor: 'analytical',
    gender: 'female',
    background: 'Leads the platform team at Acme Robotics and has hired twenty engineers.',
  },
  goals: [
    {
      name: 'Technical depth',
      description: 'Depth in Go and APIs.',
      instructions: 'Score 1-10: 9-10 deep, 5-8 some, 1-4 shallow.',
    },
    {
      name: 'Communication',
      description: 'Clear answers.',
      instructions: 'Score 1-10 on clarity and structure of answers.',
    },
    {
      name: 'Ownership',
      description: 'Owned outcomes.',
      instructions: 'Score 1-10 on ownership shown in examples.',
    },
  ],
};

describe('create-with-gpt with an LLM', () => {
  const t = withLlm;

  test('asks the model for structured output and stores what it wrote', async () => {
    const a = await t.workspace();
    llm.requests.length = 0;
    llm.replies.push({ kind: 'json', content: JSON.stringify(VALID) });
    const body = ok(
      await generate(t, a.key, { userInput: 'Interview for a senior backend engineer', duration: '25' }),
      201,
    );
    assert.equal(body.generator, 'llm');
    assert.equal(body.data.name, VALID.scenario.name);
    assert.equal(body.data.prompt, VALID.scenario.prompt);
    assert.equal(body.data.welcome_message, VALID.scenario.welcome_message);
    assert.equal(body.data.call_duration, 25);
    assert.equal(body.data.Persona.name, 'Priya Raman');
    assert.deepEqual(
      body.data.Goals.map((g: { name: string }) => g.name),
      VALID.goals.map((g) => g.name),
    );
    const request = llm.requests[0]!;
    assert.equal(request.headers.authorization, 'Bearer llm-key');
    assert.equal(request.body.model, 'test-model');
    assert.equal((request.body.response_format as { type: string }).type, 'json_schema');
    assert.match(JSON.stringify(request.body.messages), /senior backend engineer/);
  });

  test('one repair round for an invalid reply, then a clear 502', async () => {
    const a = await t.workspace();
    const noRange = {
      ...VALID,
      goals: VALID.goals.map((g) => ({ ...g, instructions: 'Judge how well they did overall.' })),
    };
    llm.requests.length = 0;
    llm.replies.push(
      { kind: 'json', content: JSON.stringify(noRange) },
      { kind: 'json', content: `\`\`\`json\n${JSON.stringify(VALID)}\n\`\`\`` },
    );
    ok(await generate(t, a.key, { userInput: 'Interview' }), 201);
    assert.equal(llm.requests.length, 2);
    assert.match(JSON.stringify(llm.requests[1]!.body.messages), /score range/);

    llm.replies.push(
      { kind: 'json', content: 'not json' },
      { kind: 'json', content: JSON.stringify({ scenario: {} }) },
    );
    const failed = expectError(await generate(t, a.key, { userInput: 'Interview' }), 502);
    assert.equal(failed.error.code, 'upstream_error');
    assert.match(failed.error.message, /language model/);

    llm.replies.push({ kind: 'error', status: 500, body: '{"error":"boom"}' });
    assert.equal(
      expectError(await generate(t, a.key, { userInput: 'Interview' }), 502).error.code,
      'upstream_error',
    );
    // Nothing half-made is left behind.
    const names = ok(await a.call('GET', '/scenarios')).data.map((s: { name: string }) => s.name);
    assert.equal(names.filter((n: string) => n === VALID.scenario.name).length, 1);
  });

  test('falls back to json_object when the server does not support json_schema', async () => {
    const a = await t.workspace();
    llm.requests.length = 0;
    llm.replies.push(
      { kind: 'error', status: 400, body: '{"error":{"message":"response_format json_schema unsupported"}}' },
      { kind: 'json', content: JSON.stringify(VALID) },
    );
    ok(await generate(t, a.key, { userInput: 'Interview' }), 201);
    assert.equal((llm.requests[1]!.body.response_format as { type: string }).type, 'json_object');
  });
});
