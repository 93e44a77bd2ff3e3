import { checkRouteSecurity } from '../security.ts';
import { assignmentsSecurity } from './security-fixture.ts';

checkRouteSecurity(assignmentsSecurity);
