'use strict';
// autocannon's setupRequest, required in its worker thread (hence CommonJS): each request asks
// for one of the paths of LNI_BENCH_PATHS (a JSON array), at random, as many readers would.
const paths = JSON.parse(process.env.LNI_BENCH_PATHS || '[]');

module.exports = (request) => ({
  ...request,
  path: paths[Math.floor(Math.random() * paths.length)],
});
