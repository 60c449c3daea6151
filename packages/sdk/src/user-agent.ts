import sdkPackage from '../package.json' with { type: 'json' };

/** This SDK's version: tsup inlines package.json at build time, so a published build names its own version. */
export const SDK_VERSION: string = sdkPackage.version;

/** `spa-sdk/1.2.0 node/20.19.0`: the API's logs tell SDK calls and their versions apart. */
export const USER_AGENT = [
  `spa-sdk/${SDK_VERSION}`,
  ...(globalThis.process?.versions?.node ? [`node/${globalThis.process.versions.node}`] : []),
].join(' ');
