import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Scenario files known to run far longer than the rest (minutes, measured): started first, so
 * that with two files at a time the short ones fill the other worker instead of waiting at the
 * end behind a long one.
 */
const LONGEST = ['mixed-forging.test.ts', 'fork-lni-longer.test.ts'];

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? LONGEST.length : index;
    };
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}
