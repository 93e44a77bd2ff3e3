import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkContracts } from '../../src/contract/commands.ts';
import { ContractFiles } from '../../src/contract/contract-files.ts';
import { CONTRACTS } from '../../src/contract/contracts.ts';

// The same gate as `npm run contract -- check` in CI, over the documents committed in this repository.
test('the committed documents pass the gate', () => {
  const result = checkContracts(new ContractFiles(process.cwd()), CONTRACTS);
  assert.ok(result.ok, result.lines.join('\n'));
  assert.ok(new ContractFiles(process.cwd()).documents().length >= CONTRACTS.length);
});
