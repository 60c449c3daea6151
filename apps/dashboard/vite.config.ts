import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `pnpm dev:dashboard` proxies the JSON API to a running server (`pnpm start`, or DASHBOARD_API_URL). The server
// refuses a state-changing call whose Origin is not its own, so the proxy presents the server's origin.
const target = process.env.DASHBOARD_API_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  // Source maps are written for whoever debugs on the server (hidden: no sourceMappingURL in the scripts) and are
  // never served (static.ts answers 404 for *.map).
  build: { outDir: 'dist', assetsDir: 'assets', sourcemap: 'hidden', target: 'es2022' },
  server: {
    port: 5173,
    proxy: {
      '/dashboard/api': {
        target,
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', new URL(target).origin)),
      },
    },
  },
});
