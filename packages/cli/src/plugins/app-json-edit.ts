import { applyEdits, findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type { RunMode } from '@lni/kernel';

/**
 * app.json with the package appended to each mode's plugin list, with its default options.
 * The text is edited in place, the way a person would add a line, so that its comments,
 * spacing and one-line entries stay as they are.
 */
export function appendToModes(
  text: string,
  packageName: string,
  modes: readonly RunMode[],
): string {
  const json = `{ "package": ${JSON.stringify(packageName)}, "options": {} }`;
  const edits = modes.map((mode) => {
    const list = pluginList(text, mode);
    const last = list.children?.at(-1);
    if (last === undefined) return { offset: list.offset + 1, length: 0, content: json };
    const end = last.offset + last.length;
    const content = sameLine(text, list.offset, last.offset)
      ? `, ${json}`
      : `,\n${indentOf(text, last.offset)}${json}`;
    return { offset: end, length: 0, content };
  });
  return applyEdits(text, edits);
}

/** app.json without the entry at `index` of `mode`'s plugin list, the rest as written. */
export function removeFromMode(text: string, mode: RunMode, index: number): string {
  const elements = pluginList(text, mode).children ?? [];
  const element = elements[index];
  if (element === undefined) throw new Error(`app.json has no entry ${mode}.plugins[${index}]`);
  const previous = elements[index - 1];
  const next = elements[index + 1];
  // Take the comma (and line break) that joined it to its neighbour along with it.
  const start = previous ? previous.offset + previous.length : element.offset;
  const end = previous || !next ? element.offset + element.length : next.offset;
  return applyEdits(text, [{ offset: start, length: end - start, content: '' }]);
}

function pluginList(text: string, mode: RunMode): Node {
  const root = parseTree(text);
  const list = root && findNodeAtLocation(root, [mode, 'plugins']);
  if (list?.type !== 'array') throw new Error(`app.json has no list ${mode}.plugins`);
  return list;
}

function sameLine(text: string, from: number, to: number): boolean {
  return !text.slice(from, to).includes('\n');
}

function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}
