import { checkRouteSecurity } from '../security.ts';
import { eventsSecurity } from './security-fixture.ts';

checkRouteSecurity(eventsSecurity);
