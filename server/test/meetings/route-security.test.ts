import { checkRouteSecurity } from '../security.ts';
import { meetingsSecurity } from './security-fixture.ts';

checkRouteSecurity(meetingsSecurity);
