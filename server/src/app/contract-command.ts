import { spawnSync } from 'node:child_process';
import { checkContracts, diffCommand, fingerprintCommand, releaseCommand } from '../contract/commands.ts';
import { ContractFiles } from '../contract/contract-files.ts';
import { CONTRACTS } from '../contract/contracts.ts';

/**
 * Regenerates the documents in a child process: the version constants are read when the apps'
 * modules load, so a release that has just rewritten them needs a fresh process to see them.
 */
async function generateInChildProcess(): Promise<void> {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/main.ts', 'openapi'], {
    stdio: 'inherit',
  });
  if (run.status !== 0) throw new Error('npm run openapi failed');
}

export const CONTRACT_USAGE = `usage: npm run contract -- <check | diff | fingerprint | release [name…]>
  check        CI gate: fingerprints match and no unrecorded breaking change since the last release
  diff         list the changes of each contract since its last release
  fingerprint  after the gate passes, record the committed documents' fingerprints
  release      cut a release at each changelog's newest version (names: ${CONTRACTS.map((c) => c.name).join(', ')})`;

/** `npm run contract -- …`, run from the repository root (docs/contract.md). */
export async function contractCommand(args: string[]): Promise<number> {
  const files = new ContractFiles(process.cwd());
  const [command, ...names] = args;
  const unknown = names.filter((name) => !CONTRACTS.some((contract) => contract.name === name));
  if (unknown.length > 0 || (names.length > 0 && command !== 'release')) {
    console.error(CONTRACT_USAGE);
    return 2;
  }
  let result: { ok: boolean; lines: string[] };
  switch (command) {
    case 'check':
      result = checkContracts(files, CONTRACTS);
      break;
    case 'diff':
      result = diffCommand(files, CONTRACTS);
      break;
    case 'fingerprint':
      result = fingerprintCommand(files, CONTRACTS);
      break;
    case 'release':
      result = await releaseCommand(files, CONTRACTS, generateInChildProcess, names);
      break;
    default:
      console.error(CONTRACT_USAGE);
      return 2;
  }
  for (const line of result.lines) (result.ok ? console.log : console.error)(line);
  return result.ok ? 0 : 1;
}
