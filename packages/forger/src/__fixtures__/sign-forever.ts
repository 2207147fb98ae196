// Marks heights 1, 2, 3, … in a signing record until killed, saying each after `mark` returned:
// the kill -9 test checks that what was said is on disk and the file is whole.
import { SigningRecord } from '../guard/signing-record.js';

const [file, publicKey] = process.argv.slice(2) as [string, string];
const record = new SigningRecord(file);
for (let height = 1; ; height += 1) {
  record.mark(publicKey, { height, slot: height * 8, id: `block-${height}` });
  process.stdout.write(`${height}\n`);
}
