import { checkRouteSecurity } from '../security.ts';
import { workspaceSecurity } from './security-fixture.ts';

checkRouteSecurity(workspaceSecurity);
