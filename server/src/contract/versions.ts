/** Contract versions are plain semantic versions, MAJOR.MINOR.PATCH, without pre-release tags. */
export type Version = readonly [number, number, number];

export function parseVersion(text: string): Version | null {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

export function compareVersions(a: string, b: string): number {
  const left = parseVersion(a);
  const right = parseVersion(b);
  if (!left || !right) throw new Error(`not a MAJOR.MINOR.PATCH version: ${left ? b : a}`);
  for (let i = 0; i < 3; i++) if (left[i] !== right[i]) return left[i]! - right[i]!;
  return 0;
}

/**
 * Whether `to` may carry breaking changes after `from`: a new major version. Below 1.0.0 the
 * minor number plays the major's part (semver's rule for initial development, where /v0 is).
 */
export function isBreakingBump(from: string, to: string): boolean {
  const a = parseVersion(from);
  const b = parseVersion(to);
  if (!a || !b) return false;
  if (b[0] !== a[0]) return b[0] > a[0];
  return a[0] === 0 && b[1] > a[1];
}

/** The smallest version after `from` that may carry breaking changes (for messages). */
export function nextBreakingVersion(from: string): string {
  const [major, minor] = parseVersion(from) ?? [0, 0, 0];
  return major === 0 ? `0.${minor + 1}.0` : `${major + 1}.0.0`;
}
