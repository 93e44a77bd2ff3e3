import { checkRouteSecurity } from '../security.ts';
import { goalsSecurity } from './security-fixture.ts';

checkRouteSecurity(goalsSecurity);
