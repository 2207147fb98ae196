import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptPassword } from './password-prompt.js';

const terminal = () => {
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  return { input, output, shown: () => shown };
};

describe('promptPassword', () => {
  it('asks on a terminal and does not echo what is typed', async () => {
    const streams = terminal();
    const answer = promptPassword(streams);
    streams.input.write('pässwörd\n');
    expect(await answer).toBe('pässwörd');
    expect(streams.shown()).toContain('Password of the BIP38 delegate secret');
    expect(streams.shown()).not.toContain('pässwörd');
  });

  it('gives nothing for an empty answer, so the node explains how to pass the password', async () => {
    const streams = terminal();
    const answer = promptPassword(streams);
    streams.input.write('\n');
    expect(await answer).toBeUndefined();
  });

  it('does not ask without a terminal', async () => {
    const input = new PassThrough();
    expect(await promptPassword({ input, output: new PassThrough() })).toBeUndefined();
  });
});
