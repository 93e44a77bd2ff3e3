// What a workspace consumed over a period (docs/live-engine.md, "Usage"): session minutes for
// every meeting; model tokens only for meetings answered by the platform LLM (custom agents and
// the offline engine spend none of ours); persona turns, and who answered them (the meeting's
// provider, or the offline engine or an apology standing in when it failed).
import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import type { DB } from '../../core/db/schema.ts';
import { invalidParam } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import { usageRepository as repo } from './repository.ts';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;

export interface UsageFilter {
  from?: string;
  to?: string;
  scenario_id?: string;
}

export class UsageService {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock }) {}

  /** The period defaults to the 30 days before now; it may span at most MAX_RANGE_DAYS. */
  async report(principal: Principal, query: UsageFilter) {
    const to = query.to ? new Date(query.to) : this.deps.clock.now();
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY_MS);
    if (Number.isNaN(to.getTime())) throw invalidParam('to', 'to must be an ISO 8601 timestamp.');
    if (Number.isNaN(from.getTime())) throw invalidParam('from', 'from must be an ISO 8601 timestamp.');
    if (from >= to) throw invalidParam('from', 'from must be before to.');
    if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
      throw invalidParam('from', `The period may span at most ${MAX_RANGE_DAYS} days.`);
    }
    const rows = await repo
      .totalsByProvider(this.deps.db, principal.accountId, { from, to, scenarioId: query.scenario_id })
      .catch((error) => {
        if ((error as { code?: string }).code === '22P02')
          throw invalidParam('scenario_id', 'scenario_id must be a UUID.');
        throw error;
      });
    const byProvider = rows.map((row) => {
      const prompt = Number(row.prompt_tokens);
      const completion = Number(row.completion_tokens);
      return {
        provider: row.provider,
        meetings: Number(row.meetings),
        session_seconds: Number(row.session_seconds),
        session_minutes: Number(row.session_minutes),
        prompt_tokens: prompt,
        completion_tokens: completion,
        total_tokens: prompt + completion,
        turns: Number(row.turns),
        answered_by: {
          custom_agent: Number(row.custom_agent_turns),
          llm: Number(row.llm_turns),
          offline: Number(row.offline_turns),
          apology: Number(row.apology_turns),
        },
      };
    });
    type Row = (typeof byProvider)[number];
    const sum = (value: (row: Row) => number) => byProvider.reduce((total, row) => total + value(row), 0);
    const answered = (key: keyof Row['answered_by']) => sum((row) => row.answered_by[key]);
    return {
      success: true as const,
      data: {
        from: from.toISOString(),
        to: to.toISOString(),
        meetings: sum((row) => row.meetings),
        session_seconds: sum((row) => row.session_seconds),
        session_minutes: sum((row) => row.session_minutes),
        prompt_tokens: sum((row) => row.prompt_tokens),
        completion_tokens: sum((row) => row.completion_tokens),
        total_tokens: sum((row) => row.total_tokens),
        turns: sum((row) => row.turns),
        answered_by: {
          custom_agent: answered('custom_agent'),
          llm: answered('llm'),
          offline: answered('offline'),
          apology: answered('apology'),
        },
        by_provider: byProvider,
      },
    };
  }
}
