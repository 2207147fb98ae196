// Preloaded with `node --require`: makes every native addon fail to load, as on a machine where
// bcrypto's build failed, so the package must fall back to its pure-JS backend.
process.dlopen = () => {
  throw new Error('simulated: native addon cannot load');
};
