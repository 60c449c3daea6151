// The installed SDK sends `User-Agent: spa-sdk/{the version it was installed as} node/{version}`: its build read the
// version from its own package.json, so a released tarball names the released version, not the one in git.
const { createPartnerClient, SDK_VERSION } = require('@spa/sdk');
const { version } = require('@spa/sdk/package.json');

let sent;
const api = createPartnerClient({
  baseUrl: process.env.SPA_API_URL,
  apiKey: process.env.SPA_API_KEY,
  fetch: (url, init) => {
    sent = new Headers(init.headers).get('user-agent');
    return fetch(url, init);
  },
});

api.listVenues().then((venues) => {
  const expected = `spa-sdk/${version} node/${process.versions.node}`;
  if (!venues.ok) throw venues.error;
  if (SDK_VERSION !== version || sent !== expected) {
    throw new Error(`User-Agent ${sent} and SDK_VERSION ${SDK_VERSION}, expected ${expected}`);
  }
  console.log(`${sent}, request ${venues.lastResponse.requestId}`);
});
