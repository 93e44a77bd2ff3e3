import { type ContractChange, diffContracts } from './breaking-changes.ts';
import { type Changelog, entriesAfter } from './changelog.ts';
import { isBreakingBump, nextBreakingVersion, parseVersion } from './versions.ts';

export interface GateInput {
  /** A name for messages: `platform`. */
  name: string;
  /** The document as last released (openapi/releases/…), or null before the first release. */
  released: unknown;
  current: unknown;
  changelog: Changelog;
}

export interface GateResult {
  problems: string[];
  changes: ContractChange[];
  releasedVersion: string | null;
}

const versionOf = (document: unknown) => (document as { info?: { version?: string } })?.info?.version ?? '';

/**
 * The policy: every change to the contract since the last release is recorded in the changelog
 * under a newer version, and a breaking change only under a new major version (0.x: a new minor)
 * whose entry marks something breaking. `info.version` moves only with a release. A change the
 * documents cannot show (a behaviour) is for people to mark: a `breaking` line under a minor
 * version is allowed, and says why it could not wait for a major.
 */
export function evaluateGate({ name, released, current, changelog }: GateInput): GateResult {
  const problems = changelog.problems.map((problem) => `${name} changelog: ${problem}`);
  if (!released) {
    problems.push(`${name}: no released snapshot yet: run npm run contract -- release`);
    return { problems, changes: [], releasedVersion: null };
  }
  const releasedVersion = versionOf(released);
  if (!parseVersion(releasedVersion)) {
    problems.push(
      `${name}: the released snapshot's info.version "${releasedVersion}" is not MAJOR.MINOR.PATCH`,
    );
    return { problems, changes: [], releasedVersion: null };
  }
  if (!changelog.entries.some((entry) => entry.version === releasedVersion)) {
    problems.push(`${name}: the changelog has no entry for the released version ${releasedVersion}`);
  }
  if (versionOf(current) !== releasedVersion) {
    problems.push(
      `${name}: info.version is ${versionOf(current)} but the last release is ${releasedVersion}: the version moves only with npm run contract -- release`,
    );
  }
  const pending = entriesAfter(changelog, releasedVersion);
  const changes = diffContracts(released, current);
  const breaking = changes.filter((change) => change.breaking);
  const recordedBreaking = pending.some(
    (entry) =>
      isBreakingBump(releasedVersion, entry.version) && entry.changes.some((c) => c.kind === 'breaking'),
  );
  if (breaking.length > 0 && !recordedBreaking) {
    problems.push(
      [
        `${name}: ${breaking.length} breaking change(s) since ${releasedVersion}:`,
        ...breaking.map((change) => `  ${change.code}  ${change.operation}: ${change.message}`),
        `  Undo them, or record them as "- **breaking**: …" under ## ${nextBreakingVersion(releasedVersion)} in the changelog.`,
      ].join('\n'),
    );
  } else if (changes.length > 0 && pending.length === 0) {
    problems.push(
      [
        `${name}: ${changes.length} change(s) since ${releasedVersion} are not in the changelog:`,
        ...changes.slice(0, 20).map((change) => `  ${change.code}  ${change.operation}: ${change.message}`),
        `  Record them under a new "## VERSION — DATE" entry above ${releasedVersion}.`,
      ].join('\n'),
    );
  }
  return { problems, changes, releasedVersion };
}
