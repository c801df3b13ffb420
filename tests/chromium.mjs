// Launch flags of Debian's headless Chromium for every browser test here:
// root needs --no-sandbox, and this closed network wants no background traffic.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** The system Chromium (or $CHROMIUM) through playwright-core, with those flags. */
export async function launch() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
