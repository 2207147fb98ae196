import { RE2JS } from 're2js';

/** Longest pattern a `regexp` condition may have. */
export const MAX_PATTERN_LENGTH = 512;
/** A value whose text is longer than this never matches a `regexp` condition. */
export const MAX_MATCHED_TEXT = 10_000;

/**
 * A `regexp` condition's pattern, compiled by RE2 (re2js): its matching time grows linearly
 * with the text, whatever the pattern, so a pattern such as `^(a+)+$` cannot stall the node the
 * way a backtracking engine does on `aaaa…!`. RE2 has no backreferences nor lookaround.
 */
export class ConditionPattern {
  readonly #compiled: RE2JS;

  private constructor(compiled: RE2JS) {
    this.#compiled = compiled;
  }

  /** Throws naming why the pattern cannot be used. */
  static compile(pattern: string): ConditionPattern {
    if (pattern.length > MAX_PATTERN_LENGTH) {
      throw new Error(`the pattern is longer than ${MAX_PATTERN_LENGTH} characters`);
    }
    return new ConditionPattern(RE2JS.compile(pattern));
  }

  /** Whether the pattern occurs in `text` (as RegExp.test); text past the bound never matches. */
  test(text: string): boolean {
    return text.length <= MAX_MATCHED_TEXT && this.#compiled.matcher(text).find();
  }
}

/** Why a pattern cannot be a `regexp` condition's value; undefined when it can. */
export function patternProblem(pattern: string): string | undefined {
  try {
    ConditionPattern.compile(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
