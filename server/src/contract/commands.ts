import { type ContractFiles, fingerprintPath, releasedPath } from './contract-files.ts';
import type { ContractDefinition } from './contracts.ts';
import { evaluateGate, type GateResult } from './gate.ts';
import { compareVersions } from './versions.ts';

export interface CommandResult {
  ok: boolean;
  lines: string[];
}

/** Writes the documents as the code generates them now (npm run openapi, in a fresh process). */
export type GenerateDocuments = () => Promise<void>;

function gate(files: ContractFiles, contract: ContractDefinition): GateResult {
  return evaluateGate({
    name: contract.name,
    released: files.readJson(releasedPath(contract.document)),
    current: files.readJson(contract.document),
    changelog: files.changelog(contract),
  });
}

/** The CI gate: fingerprints match, and every contract keeps the policy against its last release. */
export function checkContracts(files: ContractFiles, contracts: ContractDefinition[]): CommandResult {
  const lines: string[] = [];
  let ok = true;
  for (const doc of files.staleFingerprints()) {
    ok = false;
    lines.push(
      `${doc} does not match ${fingerprintPath(doc)}: the contract changed without going through the gate (npm run contract -- fingerprint, or -- release)`,
    );
  }
  for (const contract of contracts) {
    const result = gate(files, contract);
    if (result.problems.length > 0) ok = false;
    lines.push(...result.problems);
    if (result.problems.length === 0) {
      const count = result.changes.length;
      lines.push(
        `${contract.name}: released ${result.releasedVersion}; ${count ? `${count} recorded change(s) since` : 'no change since'}`,
      );
    }
  }
  return { ok, lines };
}

/** The changes of each contract since its last release, breaking first. */
export function diffCommand(files: ContractFiles, contracts: ContractDefinition[]): CommandResult {
  const lines: string[] = [];
  for (const contract of contracts) {
    const result = gate(files, contract);
    lines.push(
      `${contract.name} since ${result.releasedVersion ?? 'no release'}: ${result.changes.length} change(s)`,
    );
    const ordered = [...result.changes].sort((a, b) => Number(b.breaking) - Number(a.breaking));
    for (const change of ordered) {
      lines.push(
        `  ${change.breaking ? 'breaking' : 'additive'}  ${change.code}  ${change.operation}: ${change.message}`,
      );
    }
  }
  return { ok: true, lines };
}

/** Records the committed documents' fingerprints, once they pass the gate (work between releases). */
export function fingerprintCommand(files: ContractFiles, contracts: ContractDefinition[]): CommandResult {
  const problems = contracts.flatMap((contract) => gate(files, contract).problems);
  if (problems.length > 0) return { ok: false, lines: problems };
  files.writeFingerprints();
  return { ok: true, lines: files.documents().map((doc) => `wrote ${fingerprintPath(doc)}`) };
}

/**
 * Cuts a release of each contract at its changelog's newest version: the documents are generated
 * afresh and must pass the gate against the last release; then the version source is set, the
 * documents are generated again with that `info.version`, copied to openapi/releases/ and
 * fingerprinted. Running it again with nothing changed rewrites the same files. `only` names the
 * contracts to release; by default all of them, and then every document in openapi/ is
 * fingerprinted, those of no contract included.
 */
export async function releaseCommand(
  files: ContractFiles,
  contracts: ContractDefinition[],
  generate: GenerateDocuments,
  only: string[] = [],
): Promise<CommandResult> {
  const lines: string[] = [];
  await generate();
  const targets: { contract: ContractDefinition; version: string }[] = [];
  for (const contract of contracts.filter((c) => only.length === 0 || only.includes(c.name))) {
    const changelog = files.changelog(contract);
    const newest = changelog.entries[0];
    if (!newest)
      return { ok: false, lines: [`${contract.name}: ${contract.changelog} has no entry to release`] };
    const result = gate(files, contract);
    // Before the first release there is nothing to compare; the changelog must still be well formed.
    const problems = result.releasedVersion === null ? changelog.problems : result.problems;
    if (problems.length > 0) return { ok: false, lines: [...lines, ...problems] };
    if (result.releasedVersion && compareVersions(newest.version, result.releasedVersion) < 0) {
      return {
        ok: false,
        lines: [
          `${contract.name}: the changelog's newest entry ${newest.version} is older than the release ${result.releasedVersion}`,
        ],
      };
    }
    targets.push({ contract, version: newest.version });
    lines.push(
      result.releasedVersion === newest.version
        ? `${contract.name}: ${newest.version} is already released; snapshot and fingerprints rewritten`
        : `${contract.name}: released ${newest.version} (was ${result.releasedVersion ?? 'never released'})`,
    );
  }
  for (const { contract, version } of targets) files.setVersion(contract, version);
  await generate();
  for (const { contract } of targets) files.snapshot(contract);
  // Releasing some contracts fingerprints only theirs: another contract's changes still have to
  // pass its own gate.
  files.writeFingerprints(
    only.length === 0 ? files.documents() : targets.flatMap(({ contract }) => files.companions(contract)),
  );
  return { ok: true, lines };
}
