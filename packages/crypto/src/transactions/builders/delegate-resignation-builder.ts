import { delegateResignationHandler } from '../types/delegate-resignation.js';
import { TransactionBuilder, type BuilderOptions } from './transaction-builder.js';

export class DelegateResignationBuilder extends TransactionBuilder<DelegateResignationBuilder> {
  constructor(options?: BuilderOptions) {
    super(delegateResignationHandler, options);
  }
}

export const delegateResignation = (options?: BuilderOptions): DelegateResignationBuilder =>
  new DelegateResignationBuilder(options);
