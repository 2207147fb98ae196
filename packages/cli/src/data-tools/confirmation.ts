import { createInterface } from 'node:readline/promises';

/**
 * Asks `question` on the terminal; true for y/yes. Without a terminal there is nobody to ask,
 * so the answer is no and the caller says to pass --yes.
 */
export async function confirm(question: string): Promise<boolean> {
  if (process.stdin.isTTY !== true) return false;
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await prompt.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    prompt.close();
  }
}
