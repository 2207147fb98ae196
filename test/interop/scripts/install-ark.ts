// `npm run interop:install`: installs ARK Core into its cache directory unless it is there already.
import { ensureArkInstalled } from '../support/ark-install.js';

const { installation, installed, ms } = await ensureArkInstalled();
console.log(
  installed
    ? `ARK Core installed in ${installation.home} in ${(ms / 1000).toFixed(0)} s`
    : `ARK Core already installed in ${installation.home}`,
);
