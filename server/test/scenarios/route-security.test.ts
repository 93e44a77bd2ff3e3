import { checkRouteSecurity } from '../security.ts';
import { scenariosSecurity } from './security-fixture.ts';

checkRouteSecurity(scenariosSecurity);
