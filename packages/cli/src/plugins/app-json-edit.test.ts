import { describe, expect, it } from 'vitest';
import { appendToModes, removeFromMode } from './app-json-edit.js';

const appJson = `{
  "core": {
    "plugins": [
      { "package": "@lni/database", "options": {} },
      { "package": "@lni/api", "options": { "port": 4003 } }
    ]
  },
  "relay": {
    "plugins": [{ "package": "@lni/database", "options": {} }]
  },
  "forger": { "plugins": [] }
}
`;

describe('editing app.json as a person would', () => {
  it('appends a plugin to each mode, keeping the layout of the lines around it', () => {
    expect(appendToModes(appJson, 'acme-watch', ['core', 'relay', 'forger'])).toBe(`{
  "core": {
    "plugins": [
      { "package": "@lni/database", "options": {} },
      { "package": "@lni/api", "options": { "port": 4003 } },
      { "package": "acme-watch", "options": {} }
    ]
  },
  "relay": {
    "plugins": [{ "package": "@lni/database", "options": {} }, { "package": "acme-watch", "options": {} }]
  },
  "forger": { "plugins": [{ "package": "acme-watch", "options": {} }] }
}
`);
  });

  it('removing what was appended gives the file back as it was', () => {
    let text = appendToModes(appJson, 'acme-watch', ['core', 'relay', 'forger']);
    text = removeFromMode(text, 'core', 2);
    text = removeFromMode(text, 'relay', 1);
    text = removeFromMode(text, 'forger', 0);
    expect(text).toBe(appJson);
  });

  it('removes a first entry with the comma that followed it', () => {
    expect(removeFromMode(appJson, 'core', 0)).toContain(`"plugins": [
      { "package": "@lni/api", "options": { "port": 4003 } }
    ]`);
  });
});
