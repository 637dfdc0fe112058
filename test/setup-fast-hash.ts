// Password hashes made by the app under test use scrypt's lowest accepted cost: the suite signs in
// thousands of times. The default cost and reading hashes of any cost are covered by the unit tests.
import { setPasswordHashCost } from '../src/server/platform/passwords';

setPasswordHashCost(1024);
