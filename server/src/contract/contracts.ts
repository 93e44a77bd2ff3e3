/**
 * The contracts under governance. Every other document in openapi/ whose name starts with a
 * contract's stem (openapi/platform-v1.asyncapi.json, say) travels with it: fingerprinted beside
 * it and copied into openapi/releases/ when the contract is released.
 */
export interface ContractDefinition {
  name: string;
  /** The OpenAPI document, relative to the repository root. */
  document: string;
  changelog: string;
  /** Where the apps set `info.version`: `export const CONSTANT = 'x.y.z';` in this file. */
  versionSource: { file: string; constant: string };
}

export const CONTRACTS: ContractDefinition[] = [
  {
    name: 'platform',
    document: 'openapi/platform-v1.json',
    changelog: 'server/src/platform/CHANGELOG.md',
    versionSource: { file: 'server/src/app/platform-app.ts', constant: 'PLATFORM_API_VERSION' },
  },
  {
    name: 'mailbox',
    document: 'openapi/mailbox-v0.json',
    changelog: 'server/src/mailbox/CHANGELOG.md',
    versionSource: { file: 'server/src/app/mailbox-app.ts', constant: 'MAILBOX_API_VERSION' },
  },
];
