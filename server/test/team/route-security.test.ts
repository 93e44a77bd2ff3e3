import { checkRouteSecurity } from '../security.ts';
import { leavingSecurity, teamSecurity } from './security-fixture.ts';

checkRouteSecurity(teamSecurity);
checkRouteSecurity(leavingSecurity);
