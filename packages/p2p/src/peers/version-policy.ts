import semver from 'semver';

/** ARK Core 3.x's default `minimumVersions` of its p2p plugin. */
export const ARK_MINIMUM_VERSIONS: readonly string[] = ['^3.0', '^3.0.0-next.0', '^4.0.0-next.0'];

/**
 * Which announced versions a peer may have, as ARK decides it: a valid semver satisfying one of
 * our configured ranges and one of the milestone's (`p2p.minimumVersions`) when it has any;
 * prereleases count except on mainnet.
 */
export class VersionPolicy {
  constructor(
    private readonly deps: {
      readonly configured: readonly string[];
      readonly networkName: string;
      /** The milestone's ranges at our current height; empty when the milestone has none. */
      readonly milestoneRanges: () => readonly string[];
    },
  ) {}

  /** Undefined when `version` is acceptable, otherwise why not. */
  refuse(version: string | undefined): string | undefined {
    if (!version) return 'no version announced';
    if (!semver.valid(version)) return `version "${version.slice(0, 40)}" is not semver`;
    const includePrerelease = this.deps.networkName !== 'mainnet';
    const satisfies = (ranges: readonly string[]) =>
      ranges.length === 0 ||
      ranges.some((range) => semver.satisfies(version, range, { includePrerelease }));
    if (!satisfies(this.deps.configured)) {
      return `version ${version} is outside ${this.deps.configured.join(' or ')}`;
    }
    const milestone = this.deps.milestoneRanges();
    if (!satisfies(milestone)) {
      return `version ${version} is below the network's minimum (${milestone.join(' or ')})`;
    }
    return undefined;
  }
}
