import { delegateRegistrationHandler } from '../types/delegate-registration.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class DelegateRegistrationBuilder extends TransactionBuilder<DelegateRegistrationBuilder> {
  constructor(options?: BuilderOptions) {
    super(delegateRegistrationHandler, options);
  }

  username(username: string): this {
    this.data.asset = { delegate: { username } };
    return this;
  }
}

export const delegateRegistration = (options?: BuilderOptions): DelegateRegistrationBuilder =>
  new DelegateRegistrationBuilder(options);
