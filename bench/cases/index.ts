import type { BenchCase } from '../lib/types.js';
import { accessLogCases } from './accessLog.js';
import { homeView, homeViewChanging, notificationsActive } from './authenticated.js';
import { bare } from './bare.js';
import { csvExport } from './csvExport.js';
import { dashboardCases } from './dashboard.js';
import { reportCases } from './reports.js';
import { requestCases } from './requests.js';
import { signin } from './signin.js';
import { staticAsset } from './static-asset.js';

// Every case, in the order they run. A new feature adds a file here and one entry below.
export const CASES: BenchCase[] = [
  bare,
  staticAsset,
  signin,
  notificationsActive,
  homeView,
  homeViewChanging,
  ...requestCases,
  ...accessLogCases,
  ...dashboardCases,
  ...reportCases,
  csvExport,
];
