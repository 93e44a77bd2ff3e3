import type { Kysely } from 'kysely';
import type { DB } from '../../core/db/schema.ts';
import { invalidParam, notFound } from '../../core/http/errors.ts';
import type { Principal } from '../../core/http/principal.ts';
import { workspaceRepository as repo } from './repository.ts';

export interface WorkspacePatch {
  name?: string;
  meeting_retention_days?: number | null;
}

type WorkspaceRow = NonNullable<Awaited<ReturnType<typeof repo.find>>>;

/** The caller's workspace: its name, its meeting retention, and which engine plays its personas. */
export class WorkspaceService {
  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      /** The platform LLM's model when LLM_BASE_URL is configured, else null: the offline engine plays. */
      llmModel: string | null;
    },
  ) {}

  async get(principal: Principal) {
    const row = await repo.find(this.deps.db, principal.accountId);
    if (!row) throw notFound('workspace');
    return render(row, this.deps.llmModel);
  }

  async update(principal: Principal, patch: WorkspacePatch) {
    const name = patch.name?.trim();
    if (patch.name !== undefined && !name) throw invalidParam('name', 'name must not be blank.');
    const values = {
      ...(name !== undefined ? { name } : {}),
      ...(patch.meeting_retention_days !== undefined
        ? { meeting_retention_days: patch.meeting_retention_days }
        : {}),
    };
    if (Object.keys(values).length === 0) return this.get(principal);
    const row = await repo.update(this.deps.db, principal.accountId, values);
    if (!row) throw notFound('workspace');
    return render(row, this.deps.llmModel);
  }
}

function render(row: WorkspaceRow, llmModel: string | null) {
  return {
    id: row.id,
    name: row.name,
    meeting_retention_days: row.meeting_retention_days,
    // As MeetingService.providerFor chooses for a scenario without its own agent.
    persona_engine: llmModel ? ('llm' as const) : ('offline' as const),
    persona_model: llmModel,
    created_at: new Date(row.created_at).toISOString(),
  };
}
