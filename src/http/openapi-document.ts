// The OpenAPI document as the server serves it, built without a server or a database of the
// operator's: the typed client is generated from it (npm run client:generate) and a test checks the
// committed types still match it.
import { loadConfig } from '../platform/config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { createServices } from '../services.ts';
import { buildApp } from './app.ts';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = { ...loadConfig({ CRAWL_ENABLED: '0' }), logLevel: 'silent' };
  const handle = openDatabase('sqlite::memory:');
  try {
    await migrateToLatest(handle.db);
    const services = createServices({ db: handle.db, dialect: handle.dialect, config, background: false });
    const app = await buildApp({ config, services, logger: false });
    try {
      await app.ready();
      return (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    } finally {
      await app.close();
      await services.close();
    }
  } finally {
    await handle.close();
  }
}
