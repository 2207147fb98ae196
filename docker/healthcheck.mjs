// The image's HEALTHCHECK: healthy while the node's public API answers LNI_HEALTHCHECK_PATH
// with a 2xx. The path is set in one place, the image's environment (docker/Dockerfile).
/* global fetch, AbortSignal */
const port = process.env.CORE_API_PORT || '4003';
const path = process.env.LNI_HEALTHCHECK_PATH || '/api/node/status';
const url = `http://127.0.0.1:${port}${path}`;

try {
  const response = await fetch(url, { signal: AbortSignal.timeout(4_000) });
  if (!response.ok) {
    console.error(`${url}: HTTP ${response.status}`);
    process.exit(1);
  }
} catch (error) {
  console.error(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
