import { checkRouteSecurity } from '../security.ts';
import { analyticsSecurity } from './security-fixture.ts';

checkRouteSecurity(analyticsSecurity);
