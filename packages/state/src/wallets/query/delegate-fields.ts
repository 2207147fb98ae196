/**
 * Fields of the delegate resource (spec "Delegate") that are wallet fields under another name.
 * `blocks.last.timestamp.unix`/`.human` and `production.approval` are not here: they are
 * monotonic functions of `blocks.last.timestamp.epoch` and `votes`, which the API maps itself
 * because only it knows the epoch and the supply.
 */
export const DELEGATE_VIEW_FIELDS: Readonly<Record<string, string>> = {
  username: 'attributes.delegate.username',
  address: 'address',
  publicKey: 'publicKey',
  votes: 'attributes.delegate.voteBalance',
  rank: 'attributes.delegate.rank',
  isResigned: 'attributes.delegate.resigned',
  'blocks.produced': 'attributes.delegate.producedBlocks',
  'blocks.missed': 'attributes.delegate.missedBlocks',
  'production.productivity': 'attributes.delegate.productivity',
  'blocks.last.id': 'attributes.delegate.lastBlock.id',
  'blocks.last.height': 'attributes.delegate.lastBlock.height',
  'blocks.last.timestamp.epoch': 'attributes.delegate.lastBlock.timestamp',
  'forged.fees': 'attributes.delegate.forgedFees',
  'forged.rewards': 'attributes.delegate.forgedRewards',
  'forged.total': 'attributes.delegate.forgedTotal',
};
