// The load balancers of docs/deployment.md ("Load balancer"), run from the committed files
// (deploy/nginx/understudy.conf, deploy/haproxy/understudy.cfg; only the addresses replaced) in
// front of two API instances of the compiled build, on one PostgreSQL and one Redis:
// - requests through nginx reach both instances, /readyz answers through it, and the instances see
//   a proxied request (X-Forwarded-For);
// - HAProxy does the same and carries a room WebSocket;
// - a sub-second database blip: the instances' own 503 passes through, and the moment the
//   database is back both load balancers answer 200 again, while nginx with the settings the
//   documentation warns against (`proxy_next_upstream … http_503`, `max_fails=1`) answers
//   "502 no live upstreams" with both instances healthy;
// - a room WebSocket through nginx is handed over (close 1012) when its instance gets SIGTERM, and
//   reconnecting through nginx resumes the meeting on the other instance; requests sent through
//   nginx meanwhile are all answered 200 (before responses said `Connection: close` during a drain,
//   one to three of about a hundred got Fastify's 503, and once the reconnect did).
// Skipped without nginx (scripts/ensure-nginx.sh), PostgreSQL or Redis; the HAProxy parts without
// haproxy. The checks of the files themselves run everywhere the programs are installed.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../src/core/testing/free-port.ts';
import {
  checkHaproxyConfig,
  HAPROXY_CONFIG,
  haproxyUnavailable,
  NGINX_CONFIG,
  nginxUnavailable,
  type RunningLoadBalancer,
  startHaproxy,
  startNginx,
} from '../../src/core/testing/load-balancer.ts';
import { TcpProxy } from '../../src/core/testing/tcp-proxy.ts';
import { Participant } from '../live/helpers.ts';
import {
  buildIfStale,
  Cluster,
  json,
  eventually as poll,
  type Role,
  reachable,
  SERVER_URL,
  signUpWithKey,
  v1,
} from './cluster.ts';

describe('the committed load-balancer configurations', () => {
  test('HAProxy accepts deploy/haproxy/understudy.cfg (haproxy -c)', { skip: haproxyUnavailable() }, () => {
    assert.equal(checkHaproxyConfig(HAPROXY_CONFIG), null);
  });

  test('nginx starts with deploy/nginx/understudy.conf', { skip: nginxUnavailable() }, async () => {
    const nginx = await startNginx({ upstreams: [await freePort(), await freePort()] });
    try {
      // Nothing listens upstream: nginx's own 502, after trying both.
      assert.equal((await fetch(`${nginx.url}/healthz`)).status, 502);
    } finally {
      await nginx.stop();
    }
  });

  test('the settings the documentation warns against are absent', () => {
    const nginx = readFileSync(NGINX_CONFIG, 'utf8').replace(/#.*$/gm, '');
    assert.match(nginx, /proxy_next_upstream error timeout;/);
    assert.doesNotMatch(nginx, /http_50[234]|non_idempotent|max_fails=1\b/);
    const haproxy = readFileSync(HAPROXY_CONFIG, 'utf8').replace(/#.*$/gm, '');
    assert.match(haproxy, /^\s*option httpchk GET \/readyz$/m);
    assert.match(haproxy, /^\s*retry-on conn-failure$/m);
    assert.doesNotMatch(haproxy, /\bfall [12]\b|all-retryable-errors|retry-on[^\n]*\b50\d\b/);
  });
});

/** Polls `read` every 50 ms, for 15 s at the most, until it gives something truthy. */
const eventually = <T>(read: () => Promise<T | null | undefined | false>, what: string) =>
  poll(read, what, 15_000, 50);

const status = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return response.status;
};

// Like deployment.test.ts: a PostgreSQL deployment, run in the suite's PostgreSQL pass, once.
const skip = !process.env.DATABASE_URL
  ? 'runs when the suite runs on PostgreSQL (DATABASE_URL set)'
  : nginxUnavailable() ||
    ((await reachable(5432)) && (await reachable(6379)) ? false : 'PostgreSQL or Redis is not reachable');

describe('two API instances behind the committed load balancers', { skip }, () => {
  const cluster = new Cluster();
  const instances: Role[] = [];
  const balancers: RunningLoadBalancer[] = [];
  let nginx!: RunningLoadBalancer;
  let haproxy: RunningLoadBalancer | null = null;
  // The instances reach PostgreSQL through a proxy the blip test cuts.
  let databaseProxy!: TcpProxy;
  let key = '';
  let scenarioId = '';

  const auth = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

  function newMeeting(base: string): Promise<{ id: string; room_token: string }> {
    return v1(base, key)('POST', '/meetings', { scenario_id: scenarioId, person_name: 'Sam Lee' }, 201);
  }

  /** Sends `count` requests through `base` with a marker in the URL; resolves to the instances that logged one. */
  async function instancesReached(base: string, count: number): Promise<string[]> {
    const marker = randomBytes(6).toString('hex');
    for (let i = 0; i < count; i += 1) assert.equal(await status(`${base}/healthz?lb=${marker}`), 200);
    // The access-log line is written as the response goes out; give the pipe a moment.
    await eventually(
      async () =>
        instances.reduce((n, instance) => n + instance.output.split(marker).length - 1, 0) === count,
      'the access-log lines',
    );
    return instances.filter((instance) => instance.output.includes(marker)).map((instance) => instance.name);
  }

  before(async () => {
    // The test runs the build itself (a no-op when dist is newer than every source).
    buildIfStale();
    await cluster.create();
    const server = new URL(SERVER_URL);
    databaseProxy = await TcpProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    const ports = [await freePort(), await freePort()];
    // The load balancers first: the instances' PUBLIC_URL is nginx's address.
    nginx = await startNginx({ upstreams: ports });
    balancers.push(nginx);
    for (const [index, name] of ['A', 'B'].entries()) {
      instances.push(
        cluster.start(name, 'api', {
          DATABASE_URL: databaseProxy.rewrite(cluster.databaseUrl),
          PORT: String(ports[index]!),
          PUBLIC_URL: nginx.url,
          // One proxy in front: the pairing docs/deployment.md gives for both configurations.
          TRUST_PROXY_HOPS: '1',
        }),
      );
    }
    await Promise.all(instances.map((instance) => instance.ready(120_000)));
    // HAProxy once they listen: it starts with its servers up, and its checks keep them so.
    if (!haproxyUnavailable()) {
      haproxy = await startHaproxy({ upstreams: ports });
      balancers.push(haproxy);
    }
  });

  after(async () => {
    // The instances are killed and the database dropped (directly, not through the proxy) first.
    await cluster.close();
    await Promise.all(balancers.map((balancer) => balancer.stop()));
    await databaseProxy?.close();
  });

  test('through nginx: both instances answer, /readyz is ready, the instances see a proxied request', async () => {
    assert.deepEqual((await instancesReached(nginx.url, 6)).sort(), ['A', 'B']);
    assert.deepEqual(await json(await fetch(`${nginx.url}/readyz`), 200), {
      status: 'ready',
      database: 'ok',
      redis: 'ok',
    });
    // /metrics answers loopback clients without X-Forwarded-For: the instance itself, not through
    // nginx, which adds the header (scrape instances directly, or set METRICS_TOKEN).
    assert.equal(await status(`${instances[0]!.url}/metrics`), 200);
    assert.equal(await status(`${nginx.url}/metrics`), 403);

    // Writes through nginx: an account, a key, a persona and a scenario for the room tests.
    key = await signUpWithKey(nginx.url);
    const call = v1(nginx.url, key);
    const persona = await call(
      'POST',
      '/personas',
      {
        name: 'Jane Doe',
        job_title: 'Engineering Manager',
        demeanor: 'friendly',
        background: 'Has hired forty engineers.',
        gender: 'female',
      },
      201,
    );
    const scenario = await call(
      'POST',
      '/scenarios',
      {
        name: 'Backend interview',
        type: 'interview',
        persona_id: persona.id,
        prompt: '## Questions\n1. Ask about their background.\n2. Ask about a system they designed.',
        welcome_message: 'Hi, I am Jane. Shall we begin?',
        call_duration: 30,
      },
      201,
    );
    scenarioId = scenario.id;
  });

  test('through HAProxy: both instances answer, and a room WebSocket is carried', async (t) => {
    if (!haproxy) return t.skip(haproxyUnavailable() || 'haproxy unavailable');
    assert.ok(key, 'the nginx test ran');
    // Its checks mark the instances up once they answer /readyz (they started after HAProxy).
    await eventually(
      async () => (await instancesReached(haproxy!.url, 4)).length === 2,
      'HAProxy routing to both instances',
    );
    const meeting = await newMeeting(haproxy.url);
    const participant = await Participant.connect(haproxy.url, meeting.id, meeting.room_token);
    await participant.join();
    assert.equal((await participant.next('agent.message')).text, 'Hi, I am Jane. Shall we begin?');
    assert.ok((await participant.say('Yes, ready.')).text.length > 0);
    participant.send({ type: 'leave' });
    assert.equal((await participant.next('ended')).reason, 'participant_left');
  });

  test('a sub-second database blip: 503s pass through and nothing is ejected; http_503 with max_fails=1 answers 502', async (t) => {
    assert.ok(key, 'the nginx test ran');
    // The variant the documentation warns against, beside the committed configuration.
    const warnedAgainst = await startNginx({
      upstreams: instances.map((instance) => Number(new URL(instance.url).port)),
      edit: (text) => {
        const edited = text
          .replace(
            'proxy_next_upstream error timeout;',
            'proxy_next_upstream error timeout http_502 http_503;',
          )
          .replaceAll('max_fails=0', 'max_fails=1 fail_timeout=10s');
        assert.notEqual(edited, text);
        return edited;
      },
    });
    balancers.push(warnedAgainst);
    const personas = { headers: auth() };
    assert.equal(await status(`${warnedAgainst.url}/v1/personas`, personas), 200);

    const cutAt = Date.now();
    databaseProxy.cut();
    // Every instance shares the database, so every one of them answers 503 at once.
    for (const instance of instances)
      await eventually(async () => (await status(`${instance.url}/readyz`)) === 503, `${instance.name} 503`);
    const refused = await fetch(`${nginx.url}/v1/personas`, personas);
    assert.equal(refused.status, 503, 'the instance’s own answer, passed through');
    assert.equal((await refused.json()).error.code, 'service_unavailable');
    assert.ok(refused.headers.get('retry-after'), 'with its Retry-After');
    assert.equal(await status(`${nginx.url}/readyz`), 503);
    // The variant: a 503 is a failure, and the next instance is tried. The first request marks
    // one instance failed (the last one tried gives its 503 to the client); the second finds the
    // other failing too, and no instance is left: "502 no live upstreams" already.
    assert.equal(await status(`${warnedAgainst.url}/readyz`), 503);
    assert.equal(await status(`${warnedAgainst.url}/readyz`), 502);
    databaseProxy.restore();
    const blipMs = Date.now() - cutAt;
    t.diagnostic(`the database was away for ${blipMs} ms`);
    assert.ok(blipMs < 3000, `the blip lasted ${blipMs} ms`);

    for (const instance of instances)
      await eventually(
        async () => (await status(`${instance.url}/readyz`)) === 200,
        `${instance.name} ready`,
      );
    // The committed configuration: answered at once, by both instances.
    for (let i = 0; i < 4; i += 1) assert.equal(await status(`${nginx.url}/v1/personas`, personas), 200);
    assert.deepEqual((await instancesReached(nginx.url, 4)).sort(), ['A', 'B']);
    // HAProxy's checks (every 2 s, out after 3 failures in a row) saw at most two: both still serve.
    if (haproxy) assert.deepEqual((await instancesReached(haproxy.url, 4)).sort(), ['A', 'B']);
    // The variant: both instances healthy, and still "502 no live upstreams" for fail_timeout.
    assert.equal(await status(`${warnedAgainst.url}/v1/personas`, personas), 502);
    assert.match(warnedAgainst.output(), /no live upstreams/);
  });

  test('SIGTERM of the instance holding a room socket: 1012, and a reconnect through nginx resumes on the other', async (t) => {
    assert.ok(key, 'the nginx test ran');
    const meeting = await newMeeting(nginx.url);
    // Which instance takes the upgrade: nginx's round robin over two healthy, equally weighted
    // instances alternates, so it is the one that did not answer the request before it. (An upgrade
    // is not in the access log until the socket closes.) The close below confirms it.
    const [previous] = await instancesReached(nginx.url, 1);
    const holder = instances.find((instance) => instance.name !== previous)!;
    const participant = await Participant.connect(nginx.url, meeting.id, meeting.room_token);
    const joined = await participant.join();
    assert.equal(joined.resumed, false);
    assert.equal((await participant.next('agent.message')).text, 'Hi, I am Jane. Shall we begin?');
    const first = await participant.say('Yes, ready.');
    assert.ok(first.text.length > 0);

    // Traffic through nginx across the deploy, so that the instances' kept-alive connections are
    // in use when the signal comes: four clients in a loop until the holder has exited.
    const answers: number[] = [];
    let traffic = true;
    const clients = Array.from({ length: 4 }, async () => {
      // 0: no answer at all (the connection failed).
      while (traffic)
        answers.push(await status(`${nginx.url}/v1/personas`, { headers: auth() }).catch(() => 0));
    });
    try {
      await eventually(async () => answers.length >= 20, 'traffic through nginx');
      holder.child.kill('SIGTERM');
      // Handed over: 1012, reconnect at once (docs/realtime.md, "Reconnecting").
      assert.equal(await participant.closed(20_000), 1012);

      // The client reconnects to the same address: nginx finds the holder's listener closed
      // (connection refused, retried on the other instance), and the other instance takes the
      // meeting over.
      const again = await Participant.connect(nginx.url, meeting.id, meeting.room_token);
      const resumed = await again.join();
      assert.equal(resumed.resumed, true);
      assert.ok(
        resumed.transcript.some((line: { message: string }) => line.message === 'Yes, ready.'),
        JSON.stringify(resumed.transcript),
      );
      assert.ok((await again.say('I built a queue.')).text.length > 0);
      again.send({ type: 'leave' });
      assert.equal((await again.next('ended')).reason, 'participant_left');
      assert.equal(await holder.exited, 0, holder.tail());
    } finally {
      traffic = false;
      await Promise.allSettled(clients);
    }
    // Not one request failed: the holder's connections were closed as their answers went out, and
    // connecting to it was refused, so nginx sent everything else to the other instance.
    t.diagnostic(`${answers.length} requests through nginx during the deploy`);
    assert.deepEqual(
      answers.filter((code) => code !== 200),
      [],
    );

    // With one instance left, every request through either load balancer is answered.
    for (let i = 0; i < 4; i += 1) assert.equal(await status(`${nginx.url}/readyz`), 200);
    if (haproxy) for (let i = 0; i < 4; i += 1) assert.equal(await status(`${haproxy.url}/readyz`), 200);
  });
});
