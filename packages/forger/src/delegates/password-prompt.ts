import { read } from 'read';

export interface PromptStreams {
  readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly output: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * Asks for the BIP38 password on the terminal, echoing `*`. Without a terminal (a service, a
 * container) there is nobody to ask: undefined, and the caller explains how to pass it instead.
 */
export async function promptPassword(
  streams: PromptStreams = { input: process.stdin, output: process.stderr },
): Promise<string | undefined> {
  if (streams.input.isTTY !== true) return undefined;
  const answer = await read({
    prompt: 'Password of the BIP38 delegate secret in delegates.json: ',
    silent: true,
    replace: '*',
    input: streams.input,
    output: streams.output,
  });
  return answer === '' ? undefined : answer;
}
