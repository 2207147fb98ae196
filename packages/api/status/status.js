// The node's status page: figures read from the REST API, blocks, rounds and missed slots
// pushed over the API's nes subscriptions. Plain browser JavaScript, no build step.
'use strict';

(() => {
  const RECENT = 50;
  const $ = (id) => document.getElementById(id);
  const state = {
    activeDelegates: 51,
    blocks: [],
    /** publicKey -> username */
    usernames: new Map(),
    round: undefined,
    roundDelegates: [],
    forged: new Set(),
    missed: new Set(),
  };

  async function get(path) {
    const response = await fetch(`/api${path}`, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  }

  const short = (id) => `${id.slice(0, 8)}…${id.slice(-6)}`;
  const nameOf = (publicKey) => state.usernames.get(publicKey) ?? short(publicKey);
  const roundOf = (height) => Math.floor((height - 1) / state.activeDelegates) + 1;
  const roundStart = (round) => (round - 1) * state.activeDelegates + 1;

  const { series, countRange } = window.lniStatusCharts;

  function charts() {
    const options = (label, stroke, y = {}) => ({
      width: 520,
      height: 180,
      scales: { x: { time: false }, y },
      // Heights are whole numbers: no ticks between them.
      axes: [
        { label: 'height', incrs: [1, 2, 5, 10, 20, 50, 100] },
        { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500] },
      ],
      series: [{ label: 'height' }, { label, stroke, width: 2 }],
      legend: { show: false },
    });
    return {
      blockTime: new uPlot(options('block time', '#3366cc'), [[], []], $('block-time-chart')),
      transactions: new uPlot(
        options('transactions', '#2e8b57', { range: countRange }),
        [[], []],
        $('transactions-chart'),
      ),
    };
  }
  const plots = charts();

  function drawCharts() {
    const { blockTime, transactions } = series(state.blocks);
    plots.blockTime.setData(blockTime);
    plots.transactions.setData(transactions);
  }

  function blockRow(block, arrived) {
    const row = document.createElement('tr');
    row.dataset.height = String(block.height);
    if (arrived) row.className = 'arrived';
    const generator = block.generator.username ?? short(block.generator.publicKey);
    const cells = [
      block.height,
      short(block.id),
      generator,
      block.transactions,
      block.timestamp.human,
    ];
    for (const value of cells) {
      const cell = document.createElement('td');
      cell.textContent = String(value);
      row.append(cell);
    }
    return row;
  }

  function showBlock(block, arrived) {
    if (state.blocks.some((known) => known.id === block.id)) return;
    state.blocks.unshift(block);
    state.blocks.sort((a, b) => b.height - a.height);
    state.blocks.length = Math.min(state.blocks.length, RECENT);
    $('blocks').replaceChildren(
      ...state.blocks.map((known) => blockRow(known, arrived && known === block)),
    );
    $('height').textContent = String(state.blocks[0].height);
    drawCharts();
  }

  function drawRound() {
    $('round').textContent = state.round === undefined ? '…' : String(state.round);
    $('round-delegates').replaceChildren(
      ...state.roundDelegates.map((publicKey) => {
        const item = document.createElement('li');
        item.textContent = nameOf(publicKey);
        item.dataset.publicKey = publicKey;
        item.className = state.forged.has(publicKey)
          ? 'forged'
          : state.missed.has(publicKey)
            ? 'missed'
            : 'waiting';
        return item;
      }),
    );
  }

  async function loadRound(height) {
    const round = roundOf(height);
    if (round !== state.round) {
      state.round = round;
      state.forged = new Set();
      state.missed = new Set();
      const delegates = (await get(`/rounds/${round}/delegates`)).data;
      state.roundDelegates = delegates.map((delegate) => delegate.publicKey);
      const unknown = state.roundDelegates.filter((key) => !state.usernames.has(key));
      if (unknown.length > 0) {
        const named = await get(`/delegates?limit=100&publicKey=${unknown.join(',')}`);
        for (const delegate of named.data)
          state.usernames.set(delegate.publicKey, delegate.username);
      }
      const forged = await get(`/blocks?height.from=${roundStart(round)}&limit=100`);
      for (const block of forged.data) state.forged.add(block.generator.publicKey);
    }
    drawRound();
  }

  /**
   * At most one refresh every two seconds, however busy the pool: the page's requests count
   * against the API's per-IP limit like any client's.
   */
  let refreshing;
  function refreshSoon() {
    refreshing ??= new Promise((resolve) => setTimeout(resolve, 2_000))
      .then(refreshFigures)
      .catch(() => undefined)
      .finally(() => {
        refreshing = undefined;
      });
  }

  async function refreshFigures() {
    const [syncing, pool, peers] = await Promise.allSettled([
      get('/node/syncing'),
      get('/transactions/unconfirmed?limit=1'),
      get('/peers'),
    ]);
    if (syncing.status === 'fulfilled') {
      const { syncing: behind, blocks, height } = syncing.value.data;
      $('height').textContent = String(height);
      $('sync').textContent = behind ? `syncing, ${blocks} behind` : 'synced';
    }
    if (pool.status === 'fulfilled') $('pool').textContent = String(pool.value.meta.totalCount);
    $('peers').textContent =
      peers.status === 'fulfilled'
        ? String(peers.value.meta?.totalCount ?? peers.value.data.length)
        : '—';
  }

  function setLive(stateName, text) {
    $('live').dataset.state = stateName;
    $('live').textContent = text;
  }

  async function subscribe() {
    const client = new nes.Client(
      `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`,
    );
    let connected = false;
    client.onConnect = () => {
      setLive('live', 'live');
      // After a reconnect, fill in the blocks that arrived while the page was away.
      if (connected) void loadRecent().catch(() => undefined);
      connected = true;
    };
    client.onDisconnect = (willReconnect) =>
      setLive('offline', willReconnect ? 'reconnecting…' : 'offline');
    await client.connect();
    await client.subscribe('/events/block.applied', (block) => {
      showBlock(block, true);
      state.forged.add(block.generator.publicKey);
      void loadRound(block.height).catch(() => undefined);
      refreshSoon();
    });
    await client.subscribe('/events/block.reverted', (block) => {
      state.blocks = state.blocks.filter((known) => known.id !== block.id);
      $('blocks').replaceChildren(...state.blocks.map((known) => blockRow(known, false)));
      drawCharts();
    });
    await client.subscribe('/events/forger.missing', (missed) => {
      state.missed.add(missed.delegate.publicKey);
      if (missed.delegate.username)
        state.usernames.set(missed.delegate.publicKey, missed.delegate.username);
      drawRound();
    });
    await client.subscribe('/events/round.applied', () => {
      // The next block begins the round; loadRound picks it up then.
    });
    for (const path of ['/events/transaction.pool.added', '/events/transaction.pool.removed']) {
      await client.subscribe(path, refreshSoon);
    }
  }

  async function loadRecent() {
    const recent = await get(`/blocks?limit=${RECENT}`);
    for (const block of recent.data.reverse()) showBlock(block, false);
  }

  async function start() {
    try {
      const configuration = await get('/node/configuration');
      state.activeDelegates = configuration.data.constants.activeDelegates ?? 51;
    } catch {
      // The default of ARK's networks.
    }
    // Subscribed first, so that no block falls between the list read and the subscription
    // (one arriving twice is shown once).
    await subscribe().catch(() => setLive('offline', 'subscriptions unavailable'));
    await loadRecent();
    await refreshFigures().catch(() => undefined);
    if (state.blocks[0]) await loadRound(state.blocks[0].height).catch(() => undefined);
    setInterval(() => void refreshFigures().catch(() => undefined), 10_000);
  }

  void start();
})();
