// The status page's chart data, a plain script apart from status.js so that it can be tested
// without a browser: it sets `window.lniStatusCharts`.
'use strict';

window.lniStatusCharts = (() => {
  /**
   * The block time and transactions-per-block series of the blocks shown, oldest first. The
   * genesis block is left out of both: it is dated at the network's epoch rather than forged in
   * a slot, and its transactions (the premine and the delegates' registrations, 153 on a
   * 51-delegate network) would scale the chart so that every later block looks empty.
   */
  function series(blocks) {
    const sorted = [...blocks].sort((a, b) => a.height - b.height);
    const timeHeights = [];
    const times = [];
    const countHeights = [];
    const counts = [];
    sorted.forEach((block, index) => {
      if (block.height === 1) return;
      countHeights.push(block.height);
      counts.push(block.transactions);
      const previous = sorted[index - 1];
      if (previous === undefined || previous.height === 1) return;
      timeHeights.push(block.height);
      times.push(block.timestamp.epoch - previous.timestamp.epoch);
    });
    return { blockTime: [timeHeights, times], transactions: [countHeights, counts] };
  }

  /** A count axis from 0 to the largest count shown (at least 1): uPlot's range callback. */
  function countRange(_plot, _min, max) {
    return [0, Math.max(1, Number.isFinite(max) ? max : 0)];
  }

  return { series, countRange };
})();
