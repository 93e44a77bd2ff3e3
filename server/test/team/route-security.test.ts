import { checkRouteSecurity } from '../security.ts';
import { teamSecurity } from './security-fixture.ts';

checkRouteSecurity(teamSecurity);
