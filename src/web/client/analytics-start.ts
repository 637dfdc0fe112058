/** Side-effect entry of the site bundle: starts the tracker, error reporter and performance collector on tracked pages. */
import { startAnalytics } from './analytics.js';

startAnalytics();
