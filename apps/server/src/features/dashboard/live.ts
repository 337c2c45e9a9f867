import type { DbOrTrx } from '../../db/database.js';
import { publishTopic } from '../../live/hub.js';

// Open dashboards follow the requests live: any request change may move a row or count of a tile,
// so each one tells every dashboard open, on any instance, to load its tiles again. The message
// carries no data (each page loads only what its user may see), and one transaction sends at most
// one, as PostgreSQL folds equal notifications of a transaction into one.

export const DASHBOARD_TOPIC = 'dashboard';

export function pushDashboardChanged(trx: DbOrTrx): Promise<void> {
  return publishTopic(trx, DASHBOARD_TOPIC);
}
