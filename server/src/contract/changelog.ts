import { compareVersions, parseVersion } from './versions.ts';

/**
 * The changelog convention, read by the gate:
 *
 *   ## 1.3.0 — 2026-11-26
 *
 *   - **additive**: what an integrator can now do.
 *   - **breaking**: what an integrator must change, and how.
 *
 * Entries newest first, one `## VERSION — DATE` heading each (an ASCII hyphen works as well as the
 * dash), every top-level bullet marked. Text between the title and the first entry is free.
 */
export type ChangeKind = 'additive' | 'breaking';

export interface ChangelogEntry {
  version: string;
  date: string;
  changes: { kind: ChangeKind; text: string }[];
}

export interface Changelog {
  entries: ChangelogEntry[];
  problems: string[];
}

const HEADING = /^## (\S+) [—-] (\d{4}-\d{2}-\d{2})\s*$/;
const MARKED = /^- \*\*(additive|breaking)\*\*: (.+)$/;

export function parseChangelog(text: string): Changelog {
  const entries: ChangelogEntry[] = [];
  const problems: string[] = [];
  let current: ChangelogEntry | null = null;
  text.split('\n').forEach((line, index) => {
    const where = `line ${index + 1}`;
    if (line.startsWith('## ')) {
      const heading = HEADING.exec(line);
      if (!heading || !parseVersion(heading[1]!) || Number.isNaN(Date.parse(heading[2]!))) {
        problems.push(`${where}: an entry heading is "## MAJOR.MINOR.PATCH — YYYY-MM-DD", not "${line}"`);
        current = null;
        return;
      }
      current = { version: heading[1]!, date: heading[2]!, changes: [] };
      entries.push(current);
      return;
    }
    if (!current || !line.startsWith('- ')) return;
    const marked = MARKED.exec(line);
    if (marked) current.changes.push({ kind: marked[1] as ChangeKind, text: marked[2]! });
    else problems.push(`${where}: a change starts "- **additive**: " or "- **breaking**: "`);
  });
  for (const entry of entries) {
    if (entry.changes.length === 0) problems.push(`${entry.version}: an entry lists at least one change`);
  }
  for (let i = 1; i < entries.length; i++) {
    const newer = entries[i - 1]!;
    const older = entries[i]!;
    if (compareVersions(newer.version, older.version) <= 0) {
      problems.push(`${newer.version} stands above ${older.version}: entries go newest first`);
    }
    if (newer.date < older.date) problems.push(`${newer.version} is dated before ${older.version}`);
  }
  return { entries, problems };
}

/** The entries newer than `version`, newest first: what the next release will ship. */
export function entriesAfter(changelog: Changelog, version: string): ChangelogEntry[] {
  return changelog.entries.filter((entry) => compareVersions(entry.version, version) > 0);
}
