// Which engine plays the persona, in Chromium against a real server: without a model the overview,
// a scenario's page and a meeting's page say that the scripted engine plays it, what it can and
// cannot do, and link to the one guide on connecting a model (served by /docs); a scenario with its
// own custom agent says nothing; with LLM_BASE_URL set (never called here) no page says it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromiumMissing, launchChromium } from '../chromium.ts';
import { type ListeningPlatform, startListeningPlatform } from '../harness.ts';
import { DESKTOP, dashboardShot, openDashboard, PHONE, seriousViolations, settled } from './browser.ts';
import { addSessionToContext, freshCredentials, type TestSession } from './session.ts';

const NOTICE = '[data-engine-notice]';
/** A meeting nobody joined has no recording and no feedback yet: its page's reads of them are 404s. */
const NOT_YET = /status of 404 .*\/v1\/(recordings\/url-with-thumbnail|meetings\/[0-9a-f-]+\/feedback)/;

interface Workspace {
  t: ListeningPlatform;
  context: BrowserContext;
  session: TestSession;
  /** The seeded scenarios' ids. */
  scenarios: string[];
}

async function signedIn(browser: Browser, env: Record<string, string> = {}): Promise<Workspace> {
  const t = await startListeningPlatform({ env });
  const context = await browser.newContext({ viewport: DESKTOP });
  const session = await addSessionToContext(context, t.baseUrl, freshCredentials('engine'));
  const listed = await api({ t, session }, 'GET', '/scenarios');
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const scenarios = (listed.body.data ?? listed.body).map((scenario: { id: string }) => scenario.id);
  assert.ok(scenarios.length >= 2, 'sign-up seeds scenarios');
  return { t, context, session, scenarios };
}

/** The /v1 API as the signed-in user (the session cookie and its CSRF token). */
async function api(
  { t, session }: Pick<Workspace, 't' | 'session'>,
  method: string,
  url: string,
  payload?: object,
) {
  const response = await t.app.inject({
    method: method as 'GET',
    url: `/v1${url}`,
    headers: { cookie: session.cookie, 'x-csrf-token': session.csrfToken },
    ...(payload ? { payload: payload as Record<string, unknown> } : {}),
  });
  return { status: response.statusCode, body: response.body ? response.json() : null };
}

/**
 * Opens `path`, waits until the view and its workspace read are done, runs `check`, then the
 * usual checks: axe-core, no console errors or failed requests.
 */
async function view(
  browser: Browser,
  w: Workspace,
  path: string,
  check: (page: Page) => Promise<void>,
  viewport?: typeof PHONE,
) {
  const opened = await openDashboard(browser, w.t.baseUrl, path, { context: w.context, ignore: NOT_YET });
  if (viewport) await opened.page.setViewportSize(viewport);
  await settled(opened.page);
  await check(opened.page);
  assert.deepEqual(await seriousViolations(opened.page), [], path);
  assert.deepEqual(opened.problems, [], path);
  await opened.close();
}

/** The page has read the workspace (the notice's source) and drawn what follows from it. */
async function engineKnown(page: Page) {
  await page.waitForFunction(() =>
    performance.getEntriesByType('resource').some((entry) => /\/v1\/workspace$/.test(entry.name)),
  );
  // One more frame for Preact to render what the answer decided.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
}

async function noHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('.topbar');
    if (bar) bar.style.display = 'none';
    const width = document.documentElement.scrollWidth - window.innerWidth;
    if (bar) bar.style.display = '';
    return width;
  });
  assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
}

describe('dashboard: which engine plays the persona', { skip: chromiumMissing }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  describe('without a model: the scripted engine', () => {
    let w: Workspace;
    let customAgentScenario: string;
    let meetingId: string;

    before(async () => {
      w = await signedIn(browser);
      customAgentScenario = w.scenarios[1] as string;
      const agent = await api(w, 'PUT', `/scenarios/${customAgentScenario}`, {
        custom_agent_enabled: true,
        custom_agent_config: { base_url: 'https://agent.example.com/v1' },
      });
      assert.equal(agent.status, 200, JSON.stringify(agent.body));
      const meeting = await api(w, 'POST', '/meetings', { scenario_id: w.scenarios[0] });
      assert.equal(meeting.status, 201, JSON.stringify(meeting.body));
      meetingId = meeting.body.data?.id ?? meeting.body.id;
      const read = await api(w, 'GET', `/meetings/${meetingId}`);
      assert.equal((read.body.data ?? read.body).agent_provider, 'offline');
    });
    after(async () => {
      await w?.context.close();
      await w?.t.close();
    });

    it('the workspace read names the offline engine', async () => {
      const read = await api(w, 'GET', '/workspace');
      assert.equal(read.status, 200);
      assert.equal(read.body.persona_engine, 'offline');
      assert.equal(read.body.persona_model, null);
    });

    it('the overview says so, what it can and cannot do, and links to the guide on connecting a model', async () => {
      await view(browser, w, '/#/', async (page) => {
        const notice = page.locator(`${NOTICE}[data-engine-notice="overview"]`);
        await notice.waitFor();
        const text = (await notice.textContent()) ?? '';
        assert.match(text, /Personas are played by the scripted engine/);
        assert.match(text, /It can/);
        assert.match(text, /It cannot/);
        assert.match(text, /free conversation/);
        const link = notice.getByRole('link', { name: /How to connect a model/ });
        assert.equal(await link.getAttribute('href'), '/docs/guides/connect-a-model');
        assert.match((await link.textContent()) ?? '', /OpenAI, Ollama, a llama\.cpp or vLLM server/);
        await dashboardShot(page, 'engine-overview');
      });
      // The link lands on the guide, which names the exact settings.
      const guide = await fetch(`${w.t.baseUrl}/docs/guides/connect-a-model`);
      assert.equal(guide.status, 200);
      const html = await guide.text();
      for (const word of ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL', 'Ollama', 'llama-server', 'vllm serve'])
        assert.ok(html.includes(word), `the guide mentions ${word}`);
    });

    it("a scenario's page says so, unless the scenario has its own custom agent", async () => {
      await view(browser, w, `/#/scenarios/${w.scenarios[0]}`, async (page) => {
        const notice = page.locator(`${NOTICE}[data-engine-notice="scenario"]`);
        await notice.waitFor();
        assert.match(
          (await notice.textContent()) ?? '',
          /scripted engine plays the persona in this scenario/,
        );
        await dashboardShot(page, 'engine-scenario');
      });
      await view(browser, w, `/#/scenarios/${customAgentScenario}`, async (page) => {
        await engineKnown(page);
        assert.equal(await page.locator(NOTICE).count(), 0);
      });
    });

    it("a meeting's page says the scripted engine played it", async () => {
      await view(browser, w, `/#/meetings/${meetingId}`, async (page) => {
        const notice = page.locator(`${NOTICE}[data-engine-notice="meeting"]`);
        await notice.waitFor();
        assert.match((await notice.textContent()) ?? '', /scripted engine plays the persona in this meeting/);
        await dashboardShot(page, 'engine-meeting');
      });
    });

    it('fits a phone on the three pages', async () => {
      for (const path of ['/#/', `/#/scenarios/${w.scenarios[0]}`, `/#/meetings/${meetingId}`]) {
        await view(
          browser,
          w,
          path,
          async (page) => {
            await page.locator(NOTICE).waitFor();
            await noHorizontalScroll(page);
            await dashboardShot(page, `engine-phone-${path.split('/')[2] || 'overview'}`);
          },
          PHONE,
        );
      }
    });
  });

  describe('with a model configured', () => {
    let w: Workspace;
    let meetingId: string;

    before(async () => {
      // Nothing listens there: no page may call the model, only say which engine plays.
      w = await signedIn(browser, {
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_MODEL: 'qwen2.5:7b-instruct',
      });
      const meeting = await api(w, 'POST', '/meetings', { scenario_id: w.scenarios[0] });
      assert.equal(meeting.status, 201, JSON.stringify(meeting.body));
      meetingId = meeting.body.data?.id ?? meeting.body.id;
    });
    after(async () => {
      await w?.context.close();
      await w?.t.close();
    });

    it('the workspace read names the model', async () => {
      const read = await api(w, 'GET', '/workspace');
      assert.equal(read.body.persona_engine, 'llm');
      assert.equal(read.body.persona_model, 'qwen2.5:7b-instruct');
    });

    it('the settings name the model that plays the personas', async () => {
      await view(browser, w, '/#/settings', async (page) => {
        const engine = page.locator('[data-persona-engine="llm"]');
        await engine.waitFor();
        assert.match((await engine.textContent()) ?? '', /qwen2\.5:7b-instruct/);
        await dashboardShot(page, 'engine-settings-llm');
      });
    });

    it("a meeting's page counts the replies the scripted engine answered when the model failed", async () => {
      const created = await api(w, 'POST', '/meetings', { scenario_id: w.scenarios[0] });
      const id = created.body.data?.id ?? created.body.id;
      // As the live engine stores a conversation in which the model failed once (its retry too).
      const { db } = w.t.deps;
      const accountId = w.session.account.id;
      const now = new Date();
      const transcript = await db
        .selectFrom('transcripts')
        .select('id')
        .where('meeting_id', '=', id)
        .executeTakeFirstOrThrow();
      const lines: [string, string, string | null][] = [
        ['agent', 'Hello, thanks for calling.', 'welcome'],
        ['user', 'What does the rollout look like?', null],
        ['agent', 'We plan three waves over the quarter.', 'llm'],
        ['user', 'And the budget?', null],
        ['agent', 'About forty thousand for the first wave.', 'offline'],
      ];
      await db
        .insertInto('transcript_sentences')
        .values(
          lines.map(([speaker, message, provider], index) => ({
            transcript_id: Number(transcript.id),
            meeting_id: id,
            account_id: accountId,
            speaker: speaker as 'user' | 'agent',
            message,
            start_ms: index * 2000,
            end_ms: null,
            sequence_number: index + 1,
            provider: provider as 'llm' | null,
            created_at: now,
          })),
        )
        .execute();
      await view(browser, w, `/#/meetings/${id}`, async (page) => {
        const notice = page.locator('[data-engine-notice="stand-in"]');
        await notice.waitFor();
        assert.match((await notice.textContent()) ?? '', /answered 1 of the persona’s 2 replies/);
        assert.equal(await page.locator('[data-engine-notice="meeting"]').count(), 0);
        await dashboardShot(page, 'engine-stand-in');
      });
    });

    it('no page says the scripted engine plays', async () => {
      for (const path of ['/#/', `/#/scenarios/${w.scenarios[0]}`, `/#/meetings/${meetingId}`]) {
        await view(browser, w, path, async (page) => {
          // The meeting's page reads who played it from the meeting itself, already drawn.
          if (!path.includes('/meetings/')) await engineKnown(page);
          assert.equal(await page.locator(NOTICE).count(), 0, path);
        });
      }
    });
  });
});
