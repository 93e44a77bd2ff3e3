import { checkRouteSecurity } from '../security.ts';
import { personasSecurity } from './security-fixture.ts';

checkRouteSecurity(personasSecurity);
