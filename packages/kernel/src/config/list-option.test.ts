import Joi from 'joi';
import { describe, expect, it } from 'vitest';
import { listOption } from './list-option.js';

const schema = Joi.object({ proxies: listOption().items(Joi.string().ip()).default([]) });

describe('listOption', () => {
  it('takes an array from app.json as it is', () => {
    expect(schema.validate({ proxies: ['10.0.0.1', '::1'] }).value).toEqual({
      proxies: ['10.0.0.1', '::1'],
    });
  });

  it('takes comma-separated text from the environment, blanks and spaces ignored', () => {
    expect(schema.validate({ proxies: ' 10.0.0.1, ::1,, ' }).value).toEqual({
      proxies: ['10.0.0.1', '::1'],
    });
  });

  it('names the bad item of the text', () => {
    const { error } = schema.validate({ proxies: '10.0.0.1,nowhere' });
    expect(error?.message).toBe('"proxies[1]" must be a valid ip address with a optional CIDR');
  });

  it('keeps the rules chained after it, a minimum among them', () => {
    const relays = Joi.object({ relays: listOption().items(Joi.string()).min(1) });
    expect(relays.validate({ relays: '' }).error?.message).toBe(
      '"relays" must contain at least 1 items',
    );
  });
});
