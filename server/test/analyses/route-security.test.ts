import { checkRouteSecurity } from '../security.ts';
import { analysesSecurity } from './security-fixture.ts';

checkRouteSecurity(analysesSecurity);
