import type { CodeMigration } from '../migrator.ts';
import { sealCustomAgentHeaders } from './0063_seal_custom_agent_headers.ts';

/** Data migrations written in code, numbered in the sequence of the SQL files beside them. */
export const codeMigrations: CodeMigration[] = [sealCustomAgentHeaders];
